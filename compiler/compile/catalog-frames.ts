/**
 * The frames of `catalog.state` (stored-catalog.ts), both ways: the head (everything but the cards
 * and the figures), then the cards and the figures in slices of SLICE records as UTF-8 JSON (why
 * JSON and not v8 values: stored-catalog.ts), and back, one frame at a time as they come (from the
 * file on this thread, or as text from the read-ahead thread).
 *
 * @example
 *   for (const frame of catalogFrames(catalog)) writer.add(frame);
 *   const decoder = createCatalogDecoder(); for (const f of frames) decoder.add(f); withRejects(decoder.finish()!, maxRejects)
 */
import type {
  ActivityEventRecord, BinderRecord, CardRecord, CatalogMeta, FigureRecord, FigureSeriesRecord, FxRateRecord, PullObservationRecord, SetRecord, UserRecord,
} from '../../snapshots/records.js';
import { createRejectLog, type LoadedCatalog, type Reject } from '../source/index.js';
import { createRecordLog, type RecordList, type RecordLog, type SavedRecordLog } from '../source/record-log.js';
import { createTextPool } from '../source/shared-text.js';

/** Cards or figures per frame: a few MB each, so neither side holds the catalog twice. */
const SLICE = 50_000;

/** The first frame: everything but the cards and the figures. */
export interface Head {
  meta: CatalogMeta;
  sets: SetRecord[];
  figureSeries: FigureSeriesRecord[];
  fxRates: FxRateRecord[];
  /** UTF-8 JSON, like the cards and figures (why: the layout comment of stored-catalog.ts). */
  users: Uint8Array;
  publishedBinders: SavedRecordLog;
  activity: SavedRecordLog;
  pullObservations: SavedRecordLog;
  rejects: Reject[];
  rejected: [string, string][];
  cardFrames: number;
  figureFrames: number;
}

/** Every frame of the catalog, head first, made as they are taken (no buffer of the whole catalog). */
export function* catalogFrames(catalog: LoadedCatalog): Generator<unknown> {
  const head: Head = {
    meta: catalog.meta,
    sets: catalog.sets,
    figureSeries: [...catalog.figureSeries.values()],
    fxRates: catalog.fxRates,
    users: jsonBytes([...catalog.users.values()]),
    publishedBinders: savedLog(catalog.publishedBinders),
    activity: savedLog(catalog.activity),
    pullObservations: savedLog(catalog.pullObservations),
    rejects: [...catalog.rejects.list()],
    rejected: [...catalog.rejected],
    cardFrames: Math.ceil(catalog.cards.size / SLICE),
    figureFrames: Math.ceil(catalog.figures.size / SLICE),
  };
  yield head;
  for (const map of [catalog.cards, catalog.figures] as Map<string, unknown>[]) {
    let slice: unknown[] = [];
    for (const record of map.values()) {
      slice.push(record);
      if (slice.length === SLICE) {
        yield jsonBytes(slice);
        slice = [];
      }
    }
    if (slice.length > 0) yield jsonBytes(slice);
  }
}

/** A stored catalog but its reject log, and the rejects to replay into one. */
export type Decoded = Omit<LoadedCatalog, 'rejects'> & { storedRejects: Reject[] };

/**
 * Parses a stored catalog one frame at a time, each as it comes (the head, then the card slices,
 * then the figure slices): `add` returns false for a frame that is not one (it throws for JSON that
 * does not parse); `finish` gives the catalog, or null when it did not get exactly the frames the
 * head counts.
 */
export function createCatalogDecoder(): { add(frame: unknown): boolean; finish(): Decoded | null } {
  let head: Head | null = null;
  let at = 0;
  const share = createTextPool();
  const cards = new Map<string, CardRecord>();
  const figures = new Map<string, FigureRecord>();
  return {
    add(frame) {
      if (head === null) {
        if (frame === null || typeof frame !== 'object' || !Number.isSafeInteger((frame as Head).cardFrames) || !Number.isSafeInteger((frame as Head).figureFrames)) return false;
        head = frame as Head;
        return true;
      }
      const kind = at < head.cardFrames ? 'cards' : 'figures';
      if (at >= head.cardFrames + head.figureFrames) return false;
      at++;
      const into = kind === 'cards' ? cards : figures;
      for (const record of fromJson(frame) as (CardRecord & FigureRecord)[]) {
        // The same shared strings a load makes (shared-text.ts): a deserialized string is a new copy.
        share(kind, record as unknown as Record<string, unknown>);
        into.set(record.id, record);
      }
      return true;
    },
    finish() {
      if (head === null || at !== head.cardFrames + head.figureFrames) return null;
      return {
        meta: head.meta,
        sets: head.sets,
        setsByKey: new Map(head.sets.map((s) => [`${s.game}/${s.code}`, s])),
        cards,
        figureSeries: new Map(head.figureSeries.map((s) => [s.id, s])),
        figures,
        fxRates: head.fxRates,
        users: new Map((fromJson(head.users) as UserRecord[]).map((u) => [u.id, u])),
        publishedBinders: createRecordLog<BinderRecord>(head.publishedBinders),
        activity: createRecordLog<ActivityEventRecord>(head.activity),
        pullObservations: createRecordLog<PullObservationRecord>(head.pullObservations),
        storedRejects: head.rejects,
        rejected: new Map(head.rejected),
      };
    },
  };
}

/** The catalog in a state file's frames, or null when they are not one. */
export function decodeFrames(frames: unknown[]): Decoded | null {
  const decoder = createCatalogDecoder();
  for (let i = 0; i < frames.length; i++) {
    if (!decoder.add(frames[i])) return null;
    // Parsed: its bytes are not kept to the end.
    frames[i] = null;
  }
  return decoder.finish();
}

/** The decoded catalog with its rejects replayed under `maxRejects`: more than that throws the load's own `invalid_source` error. */
export function withRejects({ storedRejects, ...catalog }: Decoded, maxRejects: number): LoadedCatalog {
  const rejects = createRejectLog(maxRejects);
  for (const r of storedRejects) {
    rejects.add(r.file, r.lineNo, r.reason);
    rejects.check();
  }
  return { ...catalog, rejects };
}

/** Records as UTF-8 JSON bytes, and back (from the bytes, or from their text decoded on the read-ahead thread). */
const jsonBytes = (records: unknown[]): Buffer => Buffer.from(JSON.stringify(records), 'utf8');
const fromJson = (frame: unknown): unknown[] => {
  if (typeof frame === 'string') return JSON.parse(frame) as unknown[];
  // A view, not Buffer.from(bytes), which copies (a million cards' records are about 300 MB of JSON).
  const u8 = frame as Uint8Array;
  return JSON.parse(Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength).toString('utf8')) as unknown[];
};

/** A record list's blocks as they are; a list that is not a record log (tests pass arrays) is put into one. */
function savedLog<T>(list: RecordList<T>): SavedRecordLog {
  const log = list as Partial<RecordLog<T>>;
  if (typeof log.saved === 'function') return log.saved();
  const copy = createRecordLog<T>();
  for (const record of list) copy.push(record);
  return copy.saved();
}
