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
 * Layout (framed-file.ts, the frames made and parsed by catalog-frames.ts): a header (format, version,
 * catalog files hash, the files' stat, and the frames' count, bytes and SHA-1), then the frames: the small kinds and the rejects first, then the cards and the figures
 * in slices of SLICE records (no one buffer the size of the whole catalog is made on either side).
 * The cards are the card table's columns (source/card-slices.ts: copied into the table, no record
 * parsed); the figures and users are UTF-8 JSON in their frames, in pieces (catalog-frames.ts), kept
 * as bytes (as a string, one non-Latin-1 name made v8 store a whole slice as UTF-16: twice the
 * bytes) and parsed with JSON.parse: it makes one
 * string of each short value (a game, a set code, a date) as a load does, where v8.deserialize made a
 * new string for every field of every record, about 300 MB more at a million cards (measured).
 * The rest (the small kinds, the deflated record-log blocks) stay as v8 values.
 *
 * @example
 *   const { catalog, state } = await catalogFor(source, root, maxRejects, progress, () => loadCatalog(source, options));
 *   keepCatalogState(newSnapshotDir, catalog, state);   // before any price is streamed
 */
import { constants, copyFileSync, linkSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { fingerprint } from '../../snapshots/codec.js';
import { hashCatalogFiles, localCatalogFiles, statCatalogFiles, type CatalogFile } from '../source/files-hash.js';
import type { LoadedCatalog } from '../source/index.js';
import type { CatalogSource } from '../source/catalog-source.js';
import { readCurrentId } from '../../snapshots/store/pointer.js';
import { listSnapshots } from '../../snapshots/store/fs.js';
import type { ProgressSink } from './progress.js';
import { codeFiles } from './code-version.js';
import { createFrameWriter, readFrameHeader, readFrames, restampHeader, type FrameHeader } from './framed-file.js';
import { catalogFrames, createCatalogDecoder, decodeFrames, withRejects, type Decoded } from './catalog-frames.js';

/** The file in a snapshot folder. */
export const CATALOG_STATE_FILE = 'catalog.state';

const FORMAT = 'catalog-state/4';

/** What a compile keeps for the next one: the hash of the catalog files (null: nothing is kept), and the current snapshot's file when the catalog was taken from it. */
export interface CatalogState {
  filesHash: string | null;
  keptFrom: string | null;
  /** statCatalogFiles of the files, taken before they were hashed (null: none), stored in the header. */
  stat?: string | null;
  /** The `stat` in the header of the `keptFrom` file: when it differs from `stat`, the file is copied and its header given the new one. */
  keptStat?: string | null;
}

/**
 * A thread that reads for the catalog read (read-ahead.ts): the stored catalog's frames, hashed as
 * they are read, each JSON frame's bytes handed over (transferred, not copied); and the hash of the
 * catalog files.
 */
export interface ReadElsewhere {
  /** Opens a state file there: its header, when it has one whose fields equal `expect`; else null. */
  openFrames(path: string, expect: Record<string, unknown>): Promise<FrameHeader | null>;
  /** The file's next frame, or null when its bytes are not one (reading stops). */
  nextFrame(): Promise<ElsewhereFrame | null>;
  /** hashCatalogFiles of the files. */
  filesHash(files: readonly CatalogFile[]): Promise<string | null>;
  /**
   * Called once the catalog read has asked the thread for all it will (its last request is sent, or
   * it reads without the thread): the thread answers in order, so other work for it is sent then.
   */
  released?(): void;
}

export interface ElsewhereFrame {
  /** The frame's value; a JSON frame (records) as its bytes. */
  value: unknown;
  /** With the last frame: the SHA-1 of every frame byte (null: bytes the header does not count). */
  sha1?: string | null;
}

/** Frames asked for ahead of the one parsed here: a few decoded frames in memory at a time, the thread never waiting. */
const FRAMES_AHEAD = 3;
/**
 * The fewest frames a stored catalog is read on the thread for: it pays only when the thread's
 * decoding of one frame overlaps the parsing of another here. At 100,000 cards (4 frames) the thread
 * made the read 1.3 times slower (its start and the hand-over of the first frames are not
 * overlapped); at a million (23 frames) 0.92 of the time (docs/benchmarks.md).
 */
export const READ_AHEAD_FRAMES = 8;

/**
 * The catalog of a compile into `root`: taken from the current snapshot's stored catalog when the
 * files are the ones it was stored for, else `load()`ed, and what to keep for the next compile. The
 * files are hashed again after a load: files rewritten while they were read are stored under no hash.
 */
export async function catalogFor(
  source: CatalogSource, root: string, maxRejects: number, progress: ProgressSink, load: () => Promise<LoadedCatalog>, elsewhere?: ReadElsewhere,
  readAheadFrames = READ_AHEAD_FRAMES,
): Promise<{ catalog: LoadedCatalog; state: CatalogState }> {
  const files = await localCatalogFiles(source);
  const stat = files === null ? null : statCatalogFiles(files);
  const id = files === null ? null : await readCurrentId(root);
  const current = id === null ? null : join(root, id, CATALOG_STATE_FILE);
  const header = current === null ? null : readFrameHeader(current);
  const taken = (catalog: LoadedCatalog, filesHash: string) => {
    progress.advance(catalog.cards.size + catalog.figures.size);
    progress.note('read catalog: its files are unchanged since the current snapshot; taken from that snapshot\'s stored catalog');
    return { catalog, state: { filesHash, keptFrom: current, stat, keptStat: storedStat(header) } };
  };
  let before: string | null | undefined;
  // The files look untouched since the stored catalog was written: a thread reads, hashes and
  // decodes it, and hashes the catalog files, while this one parses it (at a million cards 0.92 of
  // the time this thread alone takes, on a core otherwise idle); it is used only if both hashes are
  // the ones it was stored under.
  const speculate = elsewhere !== undefined && header !== null && header.frames >= readAheadFrames && stat !== null && header.stat === stat && acceptable(header);
  if (!speculate) elsewhere?.released?.();
  else {
    const read = await decodeElsewhere(elsewhere!, current!, header!, files!);
    before = read?.filesHash;
    if (read !== null && read.decoded !== null && read.filesHash !== null && read.filesHash === header.files && read.sha1 === header.sha1) {
      return taken(withRejects(read.decoded, maxRejects), read.filesHash);
    }
  }
  if (before === undefined) before = files === null ? null : hashCatalogFiles(files);
  const kept = current === null || before === null ? null : readStoredCatalog(current, before, maxRejects);
  if (kept !== null) return taken(kept, before!);
  const catalog = await load();
  const filesHash = before !== null && files !== null && hashCatalogFiles(files) === before ? before : null;
  if (before !== null && filesHash === null) progress.note('read catalog: the catalog files changed while they were read; no stored catalog is kept for the next compile');
  return { catalog, state: { filesHash, keptFrom: null, stat } };
}

function storedStat(header: FrameHeader | null): string | null {
  return typeof header?.stat === 'string' ? header.stat : null;
}

/** Puts the state in the new snapshot's folder: the current snapshot's file linked when the catalog was taken from it, else the catalog written. */
export function keepCatalogState(dir: string, catalog: LoadedCatalog, state: CatalogState): void {
  const path = join(dir, CATALOG_STATE_FILE);
  if (state.keptFrom !== null && (state.stat ?? null) === (state.keptStat ?? null)) keepStoredCatalog(state.keptFrom, path);
  else if (state.keptFrom !== null) {
    // The same bytes under other file times (files written again with the same content): a copy
    // whose header has the files' new stat, so the next compile can decode while it hashes.
    copyFileSync(state.keptFrom, `${path}.tmp`, constants.COPYFILE_FICLONE);
    restampHeader(`${path}.tmp`, { stat: state.stat ?? null });
    renameSync(`${path}.tmp`, path);
  } else if (state.filesHash !== null) writeStoredCatalog(path, catalog, state.filesHash, state.stat ?? null);
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
/** What the stored catalog depends on besides the files: the code that reads and checks them (compiler/source), the record types, its frames' layout (catalog-frames.ts) and this file. */
export function storedCatalogVersion(): string {
  // .js when built, .ts when a test runs the source.
  const records = import.meta.url.replace(/compiler\/compile\/stored-catalog\.(js|ts)$/, 'snapshots/records.$1');
  const frames = import.meta.url.replace(/stored-catalog\.(js|ts)$/, 'catalog-frames.$1');
  versionMemo ??= fingerprint(FORMAT, ...codeFiles(new URL('../source', import.meta.url)), ...[records, frames, import.meta.url].map((u) => readFileSync(fileURLToPath(u), 'utf8')));
  return versionMemo;
}

/**
 * Writes the catalog as loaded, before any price is streamed (the rejects are the load's own), into
 * `path` through a temporary file, so a compile killed half-way leaves no file that looks complete.
 */
export function writeStoredCatalog(path: string, catalog: LoadedCatalog, filesHash: string, stat: string | null = null): void {
  const writer = createFrameWriter(path);
  try {
    for (const frame of catalogFrames(catalog)) writer.add(frame);
    writer.finish({ format: FORMAT, version: storedCatalogVersion(), files: filesHash, stat });
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
  const frames = readFrames(path, (h) => acceptable(h) && h.files === filesHash);
  const decoded = frames === null ? null : decodeFrames(frames);
  return decoded === null ? null : withRejects(decoded, maxRejects);
}

/** A header this code wrote, for any catalog files. */
function acceptable(header: Record<string, unknown>): boolean {
  return header.format === FORMAT && header.version === storedCatalogVersion();
}

/**
 * The stored catalog at `path` as `elsewhere` reads it (its header `header`), parsed here frame by
 * frame, with the SHA-1 of its frames and the hash of the catalog files taken there. Null when the
 * thread fails (the caller reads the catalog as it always does); `decoded` null when the frames are
 * not a stored catalog.
 */
async function decodeElsewhere(
  elsewhere: ReadElsewhere, path: string, header: FrameHeader, files: readonly CatalogFile[],
): Promise<{ decoded: Decoded | null; sha1: string | null; filesHash: string | null } | null> {
  const asked: Promise<ElsewhereFrame | null>[] = [];
  try {
    const opened = await elsewhere.openFrames(path, { format: header.format, version: header.version, sha1: header.sha1 });
    if (opened === null) return null;
    const ask = () => {
      if (asked.length >= opened.frames) return;
      asked.push(elsewhere.nextFrame());
      if (asked.length === opened.frames) elsewhere.released?.();
    };
    for (let i = 0; i < FRAMES_AHEAD; i++) ask();
    // Hashed after the first frames are read there, while they are parsed here.
    const filesHash = elsewhere.filesHash(files);
    const decoder = createCatalogDecoder();
    let sha1: string | null = null;
    let whole = true;
    for (let i = 0; i < opened.frames && whole; i++) {
      ask();
      const frame = await asked[i];
      asked[i] = DONE;
      if (frame === null) whole = false;
      else {
        whole = decoder.add(frame.value);
        if (i === opened.frames - 1) sha1 = frame.sha1 ?? null;
      }
    }
    return { decoded: whole ? decoder.finish() : null, sha1, filesHash: await filesHash };
  } catch {
    return null;
  } finally {
    elsewhere.released?.();
    // Frames asked for and not taken (the read stopped): their replies are dropped.
    for (const frame of asked) frame.catch(() => undefined);
  }
}

const DONE: Promise<ElsewhereFrame | null> = Promise.resolve(null);
