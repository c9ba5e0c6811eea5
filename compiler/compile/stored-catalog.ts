/**
 * The loaded catalog kept beside the snapshot compiled from it (`catalog.state`), so that the next
 * compile of byte-identical catalog files takes it instead of reading, parsing and validating them
 * again: what an incremental compile after a price change spent most of its `read catalog` phase on
 * (2.4 of 15.5 s at 100,000 cards, docs/benchmarks.md). Prices are not in it: they are streamed and
 * compared line by line every time (price-line-store.ts).
 *
 * It is trusted only when all of these equal the new compile's: the hash of `meta.json` and every
 * catalog file but prices (source/files-hash.ts), the version (the code of compiler/source, the record
 * types and this file), and the SHA-1 of its own bytes (framed-file.ts). Anything else (another
 * catalog, another compiler, a damaged or missing file) and the catalog is read as it always was. The rejects the load
 * made are replayed into a log with the new `--max-rejects`, so a tolerated bad record is reported
 * again and a lower limit fails the compile as reading would.
 *
 * It is compiler state, not part of the snapshot: no manifest lists it, so it is never published,
 * mirrored, served or verified. Only the current snapshot keeps one (dropOlderCompilerState, after
 * the publish). A snapshot whose catalog files did not change links the previous snapshot's file
 * instead of writing it again.
 *
 * Layout (framed-file.ts): a header (format, version, catalog files hash, and the frames' count, bytes
 * and SHA-1), then the frames: the small kinds and the rejects first, then the cards and the figures
 * in slices of SLICE records (no one buffer the size of the whole catalog is made on either side).
 * The cards, figures and users are UTF-8 JSON in their frames (as a string, one non-Latin-1 name made
 * v8 store a whole slice as UTF-16: twice the bytes), parsed with JSON.parse: it makes one
 * string of each short value (a game, a set code, a date) as a load does, where v8.deserialize made a
 * new string for every field of every record, about 300 MB more at a million cards (measured).
 * The rest (the small kinds, the deflated record-log blocks) stay as v8 values.
 *
 * @example
 *   const { catalog, state } = await catalogFor(source, root, maxRejects, progress, () => loadCatalog(source, options));
 *   keepCatalogState(newSnapshotDir, catalog, state);   // before any price is streamed
 */
import { copyFileSync, linkSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { fingerprint } from '../../snapshots/codec.js';
import type {
  ActivityEventRecord, BinderRecord, CardRecord, CatalogMeta, FigureRecord, FigureSeriesRecord, FxRateRecord, PullObservationRecord, SetRecord, UserRecord,
} from '../../snapshots/records.js';
import { createRejectLog, type LoadedCatalog, type Reject } from '../source/index.js';
import { createRecordLog, type RecordList, type RecordLog, type SavedRecordLog } from '../source/record-log.js';
import { catalogFilesHash } from '../source/files-hash.js';
import type { CatalogSource } from '../source/catalog-source.js';
import { readCurrentId } from '../../snapshots/store/pointer.js';
import { listSnapshots } from '../../snapshots/store/fs.js';
import type { ProgressSink } from './progress.js';
import { createTextPool } from '../source/shared-text.js';
import { codeFiles } from './code-version.js';
import { createFrameWriter, readFrames } from './framed-file.js';

/** The file in a snapshot folder. */
export const CATALOG_STATE_FILE = 'catalog.state';

const FORMAT = 'catalog-state/2';
/** Cards or figures per frame: a few MB each, so neither side holds the catalog twice. */
const SLICE = 50_000;
/** The first frame: everything but the cards and the figures. */
interface Head {
  meta: CatalogMeta;
  sets: SetRecord[];
  figureSeries: FigureSeriesRecord[];
  fxRates: FxRateRecord[];
  /** UTF-8 JSON, like the cards and figures (why: the layout comment above). */
  users: Uint8Array;
  publishedBinders: SavedRecordLog;
  activity: SavedRecordLog;
  pullObservations: SavedRecordLog;
  rejects: Reject[];
  rejected: [string, string][];
  cardFrames: number;
  figureFrames: number;
}

/** What a compile keeps for the next one: the hash of the catalog files (null: nothing is kept), and the current snapshot's file when the catalog was taken from it. */
export interface CatalogState {
  filesHash: string | null;
  keptFrom: string | null;
}

/**
 * The catalog of a compile into `root`: taken from the current snapshot's stored catalog when the
 * files are the ones it was stored for, else `load()`ed, and what to keep for the next compile. The
 * files are hashed again after a load: files rewritten while they were read are stored under no hash.
 */
export async function catalogFor(
  source: CatalogSource, root: string, maxRejects: number, progress: ProgressSink, load: () => Promise<LoadedCatalog>,
): Promise<{ catalog: LoadedCatalog; state: CatalogState }> {
  const before = await catalogFilesHash(source);
  const id = before === null ? null : await readCurrentId(root);
  const current = id === null ? null : join(root, id, CATALOG_STATE_FILE);
  const kept = current === null ? null : readStoredCatalog(current, before!, maxRejects);
  if (kept !== null) {
    progress.advance(kept.cards.size + kept.figures.size);
    progress.note('read catalog: its files are unchanged since the current snapshot; taken from that snapshot\'s stored catalog');
    return { catalog: kept, state: { filesHash: before, keptFrom: current } };
  }
  const catalog = await load();
  const filesHash = before !== null && (await catalogFilesHash(source)) === before ? before : null;
  if (before !== null && filesHash === null) progress.note('read catalog: the catalog files changed while they were read; no stored catalog is kept for the next compile');
  return { catalog, state: { filesHash, keptFrom: null } };
}

/** Puts the state in the new snapshot's folder: the current snapshot's file linked when the catalog was taken from it, else the catalog written. */
export function keepCatalogState(dir: string, catalog: LoadedCatalog, state: CatalogState): void {
  const path = join(dir, CATALOG_STATE_FILE);
  if (state.keptFrom !== null) keepStoredCatalog(state.keptFrom, path);
  else if (state.filesHash !== null) writeStoredCatalog(path, catalog, state.filesHash);
}

/**
 * Deletes the compiler state files (`files`: the stored catalog, the stored price lines) of every
 * snapshot in `root` but `current`, once `current` is published: only the current snapshot's are ever
 * read (by the next compile), and each stored catalog is about the size of the catalog's files, so
 * kept snapshots (`--keep-daily 90`) would add up. Never throws: it only frees disk, after the publish.
 */
export async function dropOlderCompilerState(root: string, current: string, files: readonly string[]): Promise<void> {
  try {
    for (const { id } of await listSnapshots(root)) if (id !== current) for (const file of files) rmSync(join(root, id, file), { force: true });
  } catch {
    // A file left behind costs disk, never correctness: the next compile reads only the current one's.
  }
}

let versionMemo: string | null = null;
/** What the stored catalog depends on besides the files: the code that reads and checks them (compiler/source), the record types and this file. */
export function storedCatalogVersion(): string {
  // .js when built, .ts when a test runs the source.
  const records = import.meta.url.replace(/compiler\/compile\/stored-catalog\.(js|ts)$/, 'snapshots/records.$1');
  versionMemo ??= fingerprint(FORMAT, ...codeFiles(new URL('../source', import.meta.url)), ...[records, import.meta.url].map((u) => readFileSync(fileURLToPath(u), 'utf8')));
  return versionMemo;
}

/**
 * Writes the catalog as loaded, before any price is streamed (the rejects are the load's own), into
 * `path` through a temporary file, so a compile killed half-way leaves no file that looks complete.
 */
export function writeStoredCatalog(path: string, catalog: LoadedCatalog, filesHash: string): void {
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
  const writer = createFrameWriter(path);
  try {
    writer.add(head);
    for (const map of [catalog.cards, catalog.figures] as Map<string, unknown>[]) {
      let slice: unknown[] = [];
      for (const record of map.values()) {
        slice.push(record);
        if (slice.length === SLICE) {
          writer.add(jsonBytes(slice));
          slice = [];
        }
      }
      if (slice.length > 0) writer.add(jsonBytes(slice));
    }
    writer.finish({ format: FORMAT, version: storedCatalogVersion(), files: filesHash });
  } catch (err) {
    writer.abort();
    throw err;
  }
}

/** The previous snapshot's file taken as this snapshot's: a hard link (the file is never changed in place), else a copy. */
function keepStoredCatalog(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/**
 * The catalog stored at `path`, when it was stored for the same files by the same code and its bytes
 * are whole; otherwise null (never throws for a missing, foreign or damaged file). The rejects it
 * holds are replayed with `maxRejects`: more than that throws the load's own `invalid_source` error.
 */
export function readStoredCatalog(path: string, filesHash: string, maxRejects: number): LoadedCatalog | null {
  const frames = catalogFrames(path, filesHash);
  if (frames === null) return null;
  const head = frames[0] as Head;
  const share = createTextPool();
  const cards = new Map<string, CardRecord>();
  const figures = new Map<string, FigureRecord>();
  let at = 1;
  for (const [into, kind, count] of [[cards, 'cards', head.cardFrames], [figures, 'figures', head.figureFrames]] as const) {
    for (let i = 0; i < count; i++, at++) {
      for (const record of fromJsonBytes(frames[at]) as (CardRecord & FigureRecord)[]) {
        // The same shared strings a load makes (shared-text.ts): a deserialized string is a new copy.
        share(kind, record as unknown as Record<string, unknown>);
        into.set(record.id, record);
      }
      frames[at] = null;
    }
  }
  const rejects = createRejectLog(maxRejects);
  for (const r of head.rejects) {
    rejects.add(r.file, r.lineNo, r.reason);
    rejects.check();
  }
  return {
    meta: head.meta,
    sets: head.sets,
    setsByKey: new Map(head.sets.map((s) => [`${s.game}/${s.code}`, s])),
    cards,
    figureSeries: new Map(head.figureSeries.map((s) => [s.id, s])),
    figures,
    fxRates: head.fxRates,
    users: new Map((fromJsonBytes(head.users) as UserRecord[]).map((u) => [u.id, u])),
    publishedBinders: createRecordLog<BinderRecord>(head.publishedBinders),
    activity: createRecordLog<ActivityEventRecord>(head.activity),
    pullObservations: createRecordLog<PullObservationRecord>(head.pullObservations),
    rejects,
    rejected: new Map(head.rejected),
  };
}

/** The frames of a whole state file stored for these catalog files by this code, or null. */
function catalogFrames(path: string, filesHash: string): unknown[] | null {
  const frames = readFrames(path, (h) => h.format === FORMAT && h.version === storedCatalogVersion() && h.files === filesHash);
  if (frames === null) return null;
  const head = frames[0] as Head;
  return frames.length === 1 + head.cardFrames + head.figureFrames ? frames : null;
}

/** Records as UTF-8 JSON bytes, and back. */
const jsonBytes = (records: unknown[]): Buffer => Buffer.from(JSON.stringify(records), 'utf8');
const fromJsonBytes = (bytes: unknown): unknown[] => {
  // A view, not Buffer.from(bytes), which copies (a million cards' records are about 300 MB of JSON).
  const u8 = bytes as Uint8Array;
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
