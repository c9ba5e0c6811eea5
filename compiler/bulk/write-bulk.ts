/**
 * The bulk files of a snapshot: what a partner downloads in one request instead of one per document.
 * Gzip NDJSON, one record per line, in key order:
 *
 *   bulk/cards.ndjson.gz     every card's 30d document `data`
 *   bulk/figures.ndjson.gz   every figure document's `data`
 *   bulk/oracle.ndjson.gz    every oracle concept document's `data`
 *   bulk/sets.ndjson.gz      every set record, with its card count
 *   bulk/changes.ndjson.gz   the keys new, changed or removed since the previous snapshot
 *
 * Documents are read back from the objects this compile just published into the folder (in the page
 * cache), so a bulk line is exactly the `data` the API serves. Each file records the fingerprint of
 * its inputs (the hashes of its source objects); when the previous snapshot has a file with the same
 * fingerprint it is hard-linked instead of rebuilt. Output is deterministic (fixed gzip settings,
 * mtime 0), so equal inputs give equal bytes and hashes.
 *
 * The compile builds them on a worker thread (background-bulk.ts) while it renders the aggregates.
 *
 * @example
 *   const file = await buildBulkFile(documentJob('cards', entries), dir, previousDir, await previousBulk(previousDir));
 *   file  // { name: 'cards', file: 'bulk/cards.ndjson.gz', count: 5000, size, sha256, input }
 */
import { createHash } from 'node:crypto';
import { copyFileSync, createReadStream, createWriteStream, linkSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { join } from 'node:path';
import { constants, createGunzip, createGzip, gunzipSync } from 'node:zlib';
import { GZIP_LEVEL, sha256Hex, stableJson } from '../../snapshots/codec.js';
import { BULK_DIR, MANIFEST_FILE } from '../../snapshots/keys.js';
import { readManifestHeader, type BulkFile, type ChangeEntry, type ManifestEntry } from '../../snapshots/manifest.js';
import type { SetRecord } from '../../snapshots/records.js';
import { makeDirsSync } from '../../snapshots/store/make-dirs.js';
import { createPackReader } from '../../snapshots/packs/pack-reader.js';

export const BULK_NAMES = ['cards', 'figures', 'oracle', 'sets', 'changes'] as const;
export type BulkName = (typeof BULK_NAMES)[number];

export const bulkFileOf = (name: string) => `${BULK_DIR}/${name}.ndjson.gz`;

/**
 * One bulk file to build: its lines come either from stored objects (`keys`, read back from the
 * snapshot folder, each contributing its `data`) or ready-made (`lines`). `input` fingerprints
 * everything the file is built from, so an equal previous file is re-used instead of rebuilt.
 * Plain data, so a job can be posted to the bulk worker thread.
 */
export interface BulkJob {
  name: BulkName;
  input: string;
  count: number;
  keys?: string[];
  /** SHA-256 of each object of `keys`, in the same order. */
  shas?: string[];
  /**
   * Where each object of `keys` is stored, in the same order (packed snapshots): the pack's SHA-256
   * under `packsDir`, the offset and the length. Without it objects are read from per-URL files.
   */
  stored?: { packsDir: string; packs: string[]; offsets: number[]; sizes: number[] };
  /**
   * The objects the previous snapshot's file was built from (keys and hashes, in its line order):
   * a line whose object is unchanged is copied from that file instead of read back and decoded.
   */
  previous?: { keys: string[]; shas: string[] };
  lines?: string[];
}

const CARD_30D = /^v1\/cards\/[^/]+\/30d\.json\.gz$/;
const FIGURE = /^v1\/figures\/[^/]+\.json\.gz$/;
const ORACLE = /^v1\/oracle\/[^/]+\.json\.gz$/;
/** Lines are handed to gzip in batches of about this many characters (one write per line costs more than the compression). */
const BATCH_CHARS = 256 * 1024;

/**
 * The `data` member of a stored envelope, as the exact text the API serves. Stored envelopes are
 * canonical JSON (keys sorted: apiVersion, asOf, data, kind, page, schemaVersion, warnings), so `data`
 * starts after the first `"data":` and ends at the last `,"kind":"`: an unescaped quote cannot occur
 * inside a JSON string, and only strings follow `data`. Slicing skips a parse and a stringify per
 * document (most of this phase's time); any other shape falls back to JSON.parse.
 */
export function dataOf(json: string, key: string): string {
  const start = json.indexOf(',"data":');
  const end = json.lastIndexOf(',"kind":"');
  if (json.startsWith('{"apiVersion":') && start > 0 && end > start) return json.slice(start + 8, end);
  const doc = JSON.parse(json) as { data?: unknown };
  if (doc.data === undefined) throw new Error(`${key} is not an envelope`);
  return JSON.stringify(doc.data);
}

function hashOf(lines: Iterable<string>): string {
  const h = createHash('sha256');
  for (const l of lines) h.update(l).update('\n');
  return h.digest('hex');
}

const PATTERNS: Partial<Record<BulkName, RegExp>> = { cards: CARD_30D, figures: FIGURE, oracle: ORACLE };

const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * The job of a document bulk file (`cards`, `figures`, `oracle`) from the snapshot's entries (any
 * order; lines go in key order), and from the previous snapshot's objects when there is one.
 */
export function documentJob(
  name: 'cards' | 'figures' | 'oracle',
  entries: Iterable<ManifestEntry>,
  previousObjects?: Iterable<[string, { sha256: string }]> | null,
  locate?: { packsDir: string; of(entry: ManifestEntry): { pack: string; offset: number } },
): BulkJob {
  const pattern = PATTERNS[name]!;
  const picked: ManifestEntry[] = [];
  for (const e of entries) if (pattern.test(e.key)) picked.push(e);
  picked.sort(byKey);
  const job: BulkJob = {
    name,
    input: hashOf(picked.map((e) => `${e.key} ${e.sha256}`)),
    count: picked.length,
    keys: picked.map((e) => e.key),
    shas: picked.map((e) => e.sha256),
  };
  if (locate) {
    const stored = { packsDir: locate.packsDir, packs: [] as string[], offsets: [] as number[], sizes: [] as number[] };
    for (const e of picked) {
      const at = locate.of(e);
      stored.packs.push(at.pack);
      stored.offsets.push(at.offset);
      stored.sizes.push(e.size);
    }
    job.stored = stored;
  }
  if (previousObjects) {
    const before: { key: string; sha256: string }[] = [];
    for (const [key, o] of previousObjects) if (pattern.test(key)) before.push({ key, sha256: o.sha256 });
    before.sort(byKey);
    job.previous = { keys: before.map((e) => e.key), shas: before.map((e) => e.sha256) };
  }
  return job;
}

/** The job of `bulk/sets.ndjson.gz`: every set record with its card count, in game/code order. */
export function setsJob(sets: SetRecord[], perSet: Map<string, number>): BulkJob {
  const lines = [...sets]
    .sort((a, b) => (a.game < b.game ? -1 : a.game > b.game ? 1 : a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
    .map((s) => stableJson({ ...s, cards: perSet.get(`${s.game}/${s.code}`) ?? 0 }) + '\n');
  return { name: 'sets', input: hashOf(lines), count: lines.length, lines };
}

/** The job of `bulk/changes.ndjson.gz`: the change list, one entry per line. */
export function changesJob(changes: Iterable<ChangeEntry>): BulkJob {
  const lines = Array.from(changes, (c) => JSON.stringify(c) + '\n');
  return { name: 'changes', input: hashOf(lines), count: lines.length, lines };
}

/** The previous file's checksum or line count did not match its manifest entry: build without it. */
class StalePreviousBulk extends Error {}

/**
 * Lines of the previous snapshot's bulk file, in order, checked as they are read: at the end the
 * compressed bytes must hash to the manifest's SHA-256 and the line count must match, or `finish`
 * throws and the file is built again from the objects alone (nothing half-trusted is published).
 */
function previousLines(path: string, expected: BulkFile) {
  const file = createReadStream(path);
  const hash = createHash('sha256');
  file.on('data', (chunk) => hash.update(chunk));
  const gunzip = createGunzip();
  file.on('error', (err) => gunzip.destroy(err));
  const lines = createInterface({ input: file.pipe(gunzip), crlfDelay: Infinity })[Symbol.asyncIterator]();
  let read = 0;
  const next = async (): Promise<string> => {
    const r = await lines.next();
    if (r.done) throw new StalePreviousBulk(`${path} has fewer lines than its manifest entry`);
    read++;
    return r.value + '\n';
  };
  return {
    next,
    async finish() {
      while (!(await lines.next()).done) read++;
      if (read !== expected.count || hash.digest('hex') !== expected.sha256) {
        throw new StalePreviousBulk(`${path} does not match its manifest entry`);
      }
    },
    close() {
      file.destroy();
      gunzip.destroy();
    },
  };
}

/**
 * The bytes of object `key` from a folder of per-URL files (a job without `stored`: the bulk files
 * built on their own, as their tests do). An object missing from `dir` is read from `previousDir`
 * and accepted only if it hashes to the expected SHA-256.
 */
function readObject(dir: string, previousDir: string | null, key: string, sha256: string | undefined): Buffer {
  try {
    return readFileSync(join(dir, key));
  } catch (err) {
    if (previousDir === null || sha256 === undefined || (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    const bytes = readFileSync(join(previousDir, key));
    if (sha256Hex(bytes) !== sha256) throw err;
    return bytes;
  }
}

async function* documentLines(job: BulkJob, dir: string, previousDir: string | null, reuse: { path: string; file: BulkFile } | null): AsyncGenerator<string> {
  const keys = job.keys ?? [];
  const shas = job.shas ?? [];
  const before = reuse && job.previous ? job.previous : null;
  const prev = before && reuse ? previousLines(reuse.path, reuse.file) : null;
  const stored = job.stored;
  const packs = stored ? createPackReader({ dir: stored.packsDir }) : null;
  const bytesOf = (i: number, key: string): Buffer =>
    packs && stored ? packs.read(stored.packs[i], stored.offsets[i], stored.sizes[i]) : readObject(dir, previousDir, key, shas[i]);
  try {
    let p = 0;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (prev && before) {
        // Both lists are in key order: skip the previous lines of keys that are gone.
        while (p < before.keys.length && before.keys[p] < key) {
          await prev.next();
          p++;
        }
        if (p < before.keys.length && before.keys[p] === key) {
          const line = await prev.next();
          if (before.shas[p++] === shas[i]) {
            yield line;
            continue;
          }
        }
      }
      yield dataOf(gunzipSync(bytesOf(i, key)).toString('utf8'), key) + '\n';
    }
    await prev?.finish();
  } finally {
    prev?.close();
    packs?.close();
  }
}

async function* linesOf(job: BulkJob, dir: string, previousDir: string | null, reuse: { path: string; file: BulkFile } | null): AsyncGenerator<string> {
  if (job.lines) yield* job.lines;
  else yield* documentLines(job, dir, previousDir, reuse);
}

export async function previousBulk(previousDir: string | null): Promise<Map<string, BulkFile>> {
  if (previousDir === null) return new Map();
  try {
    const header = await readManifestHeader(join(previousDir, MANIFEST_FILE));
    return new Map((header.bulk ?? []).map((b) => [b.name, b]));
  } catch {
    return new Map();
  }
}

/** Streams `lines` through gzip into `path` (via a temporary name), hashing the compressed bytes. */
async function writeGzipLines(path: string, lines: AsyncIterable<string>): Promise<{ size: number; sha256: string }> {
  const tmp = `${path}.tmp`;
  const out = createWriteStream(tmp);
  const gz = createGzip({ level: GZIP_LEVEL, strategy: constants.Z_DEFAULT_STRATEGY });
  const hash = createHash('sha256');
  let size = 0;
  gz.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    size += chunk.length;
  });
  gz.pipe(out);
  try {
    let batch = '';
    for await (const line of lines) {
      batch += line;
      if (batch.length >= BATCH_CHARS) {
        if (!gz.write(batch)) await once(gz, 'drain');
        batch = '';
      }
    }
    gz.end(batch);
    await once(out, 'finish');
  } catch (err) {
    // A line could not be made (an object unreadable): close both streams and leave no partial file.
    gz.destroy();
    out.destroy();
    await once(out, 'close').catch(() => undefined);
    rmSync(tmp, { force: true });
    throw err;
  }
  renameSync(tmp, path);
  return { size, sha256: hash.digest('hex') };
}

/** True when `err` is the previous bulk file failing to open or decode (gone, truncated, not gzip). */
function isMissing(err: unknown, path: string): boolean {
  const e = err as NodeJS.ErrnoException;
  return (e.code === 'ENOENT' && e.path === path) || e.code === 'Z_BUF_ERROR' || e.code === 'Z_DATA_ERROR';
}

function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/**
 * Builds one bulk file into `dir`, or hard-links the previous snapshot's file when its input
 * fingerprint is the same (equal inputs give equal bytes, so nothing is lost by not rebuilding).
 */
export async function buildBulkFile(job: BulkJob, dir: string, previousDir: string | null, previous: Map<string, BulkFile>): Promise<BulkFile> {
  makeDirsSync(join(dir, BULK_DIR));
  const file = bulkFileOf(job.name);
  const prev = previous.get(job.name);
  if (previousDir !== null && prev && prev.input === job.input && prev.file === file) {
    try {
      linkOrCopy(join(previousDir, prev.file), join(dir, file));
      return { ...prev };
    } catch {
      // the previous file is gone: build it again below
    }
  }
  // Lines of unchanged objects come from the previous file when it is there and intact (at 100k
  // cards the alternative, reading 100,000 objects back, took 13 s of CPU and, once this VM had
  // evicted them from the page cache, 53 s of disk reads: docs/benchmarks.md).
  const reuse = previousDir !== null && prev && prev.file === file ? { path: join(previousDir, prev.file), file: prev } : null;
  let written: { size: number; sha256: string };
  try {
    written = await writeGzipLines(join(dir, file), linesOf(job, dir, previousDir, reuse));
  } catch (err) {
    if (!(err instanceof StalePreviousBulk || (reuse && isMissing(err, reuse.path)))) throw err;
    written = await writeGzipLines(join(dir, file), linesOf(job, dir, previousDir, null));
  }
  return { name: job.name, file, count: job.count, size: written.size, sha256: written.sha256, input: job.input };
}

/** Cards per `<game>/<code>` (the `cards` field of a set's bulk line). */
export function cardsPerSet(cards: Iterable<{ game: string; setCode: string }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of cards) {
    const k = `${c.game}/${c.setCode}`;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}
