/**
 * The frames of `catalog.state` (stored-catalog.ts), both ways: the head (everything but the cards
 * and the figures), then the cards in slices of SLICE as the card table's columns (source/card-slices.ts:
 * taken by copying arrays into the table, where parsing them as JSON took most of the read), then
 * the figures in slices of SLICE records as UTF-8 JSON (why JSON and not v8 values: stored-catalog.ts),
 * and back, one frame at a time as they come (from the file on this thread, or its bytes handed over
 * by the read-ahead thread).
 *
 * A JSON frame is pieces of at most about PIECE_CHARS characters, each a JSON array of whole
 * records, one per line: each piece is decoded and parsed on its own. One string for a whole frame
 * (15 MB at SLICE records) is a large object V8 maps fresh, and one non-ASCII name (an accented
 * artist) makes all of it two bytes per character: at a million cards, decoding whole frames took
 * 4.9-5.0 s and parsing them 2.3-2.8 s; in pieces of 32 KB, 1.8-2.2 s and 1.5-2.2 s, the same
 * records (`npm run bench:json-pieces`, docs/benchmarks.md). JSON.stringify never writes a newline
 * outside a string, and escapes one inside a string, so a newline byte always ends a piece.
 *
 * @example
 *   for (const frame of catalogFrames(catalog)) writer.add(frame);
 *   const decoder = createCatalogDecoder(); for (const f of frames) decoder.add(f); withRejects(decoder.finish()!, maxRejects)
 */
import type {
  ActivityEventRecord, BinderRecord, CatalogMeta, FigureRecord, FigureSeriesRecord, FxRateRecord, PullObservationRecord, SetRecord, UserRecord,
} from '../../snapshots/records.js';
import { createRejectLog, type LoadedCatalog, type Reject } from '../source/index.js';
import { createRecordLog, type RecordList, type RecordLog, type SavedRecordLog } from '../source/record-log.js';
import { createTextPool } from '../source/shared-text.js';
import { createCardTableBuilder, type CardTable, type CardTableBuilder } from '../source/card-table.js';
import { CatalogError } from '../../snapshots/errors.js';
import { createCardSlicer, decodeCardSlice, encodeCardSlice } from '../source/card-slices.js';

/** Cards or figures per frame: a few MB each, so neither side holds the catalog twice. */
const SLICE = 50_000;
/**
 * The most characters a piece of a frame's JSON has (but a single record longer than that): its
 * string stays under V8's largest regular object (128 KB) even at two bytes per character, so it is
 * made like any small string.
 */
const PIECE_CHARS = 32 * 1024;

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
    users: jsonPieces([...catalog.users.values()]),
    publishedBinders: savedLog(catalog.publishedBinders),
    activity: savedLog(catalog.activity),
    pullObservations: savedLog(catalog.pullObservations),
    rejects: [...catalog.rejects.list()],
    rejected: [...catalog.rejected],
    cardFrames: Math.ceil(catalog.cards.size / SLICE),
    figureFrames: Math.ceil(catalog.figures.size / SLICE),
  };
  yield head;
  const slicer = createCardSlicer();
  for (const slice of slices(catalog.cards)) yield encodeCardSlice(slicer.slice(slice));
  for (const slice of slices(catalog.figures)) yield jsonPieces(slice);
}

/** The values of `map` in runs of SLICE. */
function* slices<T>(map: ReadonlyMap<string, T>): Generator<T[]> {
  let slice: T[] = [];
  for (const record of map.values()) {
    slice.push(record);
    if (slice.length === SLICE) {
      yield slice;
      slice = [];
    }
  }
  if (slice.length > 0) yield slice;
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
  // The cards in columns off the heap, not a million objects that live for the whole compile (card-table.ts).
  let cards = createCardTableBuilder();
  const figures = new Map<string, FigureRecord>();
  return {
    add(frame) {
      if (head === null) {
        if (frame === null || typeof frame !== 'object' || !Number.isSafeInteger((frame as Head).cardFrames) || !Number.isSafeInteger((frame as Head).figureFrames)) return false;
        head = frame as Head;
        cards = createCardTableBuilder(Math.max(1, head.cardFrames) * SLICE);
        return true;
      }
      const kind = at < head.cardFrames ? 'cards' : 'figures';
      if (at >= head.cardFrames + head.figureFrames) return false;
      at++;
      if (kind === 'cards') {
        const slice = frame instanceof Uint8Array ? decodeCardSlice(frame) : null;
        return slice !== null && cards.addSlice(slice);
      }
      // The same shared strings a load makes (shared-text.ts): a parsed string is a new copy.
      return eachRecord(frame, (record: FigureRecord) => {
        share(kind, record as unknown as Record<string, unknown>);
        figures.set(record.id, record);
      });
    },
    finish() {
      if (head === null || at !== head.cardFrames + head.figureFrames) return null;
      const users = usersOf(head.users);
      if (users === null) return null;
      const table = tableOf(cards);
      if (table === null) return null;
      return {
        meta: head.meta,
        sets: head.sets,
        setsByKey: new Map(head.sets.map((s) => [`${s.game}/${s.code}`, s])),
        cards: table,
        figureSeries: new Map(head.figureSeries.map((s) => [s.id, s])),
        figures,
        fxRates: head.fxRates,
        users,
        publishedBinders: createRecordLog<BinderRecord>(head.publishedBinders),
        activity: createRecordLog<ActivityEventRecord>(head.activity),
        pullObservations: createRecordLog<PullObservationRecord>(head.pullObservations),
        storedRejects: head.rejects,
        rejected: new Map(head.rejected),
      };
    },
  };
}

/**
 * The card table of the slices taken, or null when they hold an id twice: frames whose hash matches
 * can still be ones this code never wrote together, and a stored catalog that is not one is read
 * again from the files, never a failed compile.
 */
function tableOf(cards: CardTableBuilder): CardTable | null {
  try {
    return cards.finish();
  } catch (err) {
    if (err instanceof CatalogError && err.code === 'internal') return null;
    throw err;
  }
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

/**
 * Records as the UTF-8 bytes of JSON pieces, one per line (see the header comment). Each piece is one
 * JSON.stringify of a run of records, the run halved when its text is longer than PIECE_CHARS and
 * doubled when it is shorter than half: one call per record made writing a million cards' frames
 * about 2 s slower (docs/benchmarks.md).
 */
function jsonPieces(records: readonly unknown[]): Buffer {
  const pieces: string[] = [];
  let run = 64;
  for (let at = 0; at < records.length; ) {
    const n = Math.min(run, records.length - at);
    const json = JSON.stringify(records.slice(at, at + n));
    if (json.length > PIECE_CHARS && n > 1) {
      run = n >> 1;
      continue;
    }
    pieces.push(json);
    at += n;
    if (json.length < PIECE_CHARS / 2) run = n * 2;
  }
  if (pieces.length === 0) pieces.push('[]');
  return Buffer.from(pieces.join('\n'), 'utf8');
}

/**
 * Calls `each` with every record of a frame's JSON pieces, piece by piece; false when the frame is not
 * bytes or a piece is not an array (it throws for JSON that does not parse).
 */
function eachRecord<T>(frame: unknown, each: (record: T) => void): boolean {
  if (!(frame instanceof Uint8Array)) return false;
  // A view, not Buffer.from(bytes), which copies (a million cards' records are about 300 MB of JSON).
  const bytes = Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength);
  for (let from = 0; from < bytes.length; ) {
    let end = bytes.indexOf(NEWLINE, from);
    if (end < 0) end = bytes.length;
    const records: unknown = JSON.parse(bytes.toString('utf8', from, end));
    if (!Array.isArray(records)) return false;
    for (let i = 0; i < records.length; i++) each(records[i] as T);
    from = end + 1;
  }
  return true;
}

const NEWLINE = 0x0a;

/** The head's users by id, or null when they are not JSON pieces. */
function usersOf(frame: unknown): Map<string, UserRecord> | null {
  const users = new Map<string, UserRecord>();
  return eachRecord(frame, (u: UserRecord) => users.set(u.id, u)) ? users : null;
}

/** A record list's blocks as they are; a list that is not a record log (tests pass arrays) is put into one. */
function savedLog<T>(list: RecordList<T>): SavedRecordLog {
  const log = list as Partial<RecordLog<T>>;
  if (typeof log.saved === 'function') return log.saved();
  const copy = createRecordLog<T>();
  for (const record of list) copy.push(record);
  return copy.saved();
}
