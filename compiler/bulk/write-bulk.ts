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
import { copyFileSync, createWriteStream, linkSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { constants, createGzip, gunzipSync } from 'node:zlib';
import { GZIP_LEVEL, stableJson } from '../../snapshots/codec.js';
import { BULK_DIR, MANIFEST_FILE } from '../../snapshots/keys.js';
import { readManifestHeader, type BulkFile, type ChangeEntry, type ManifestEntry } from '../../snapshots/manifest.js';
import type { SetRecord } from '../../snapshots/records.js';

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

/** The job of a document bulk file (`cards`, `figures`, `oracle`) from the snapshot's entries (any order; lines go in key order). */
export function documentJob(name: 'cards' | 'figures' | 'oracle', entries: Iterable<ManifestEntry>): BulkJob {
  const pattern = PATTERNS[name]!;
  const picked: ManifestEntry[] = [];
  for (const e of entries) if (pattern.test(e.key)) picked.push(e);
  picked.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { name, input: hashOf(picked.map((e) => `${e.key} ${e.sha256}`)), count: picked.length, keys: picked.map((e) => e.key) };
}

/** The job of `bulk/sets.ndjson.gz`: every set record with its card count, in game/code order. */
export function setsJob(sets: SetRecord[], perSet: Map<string, number>): BulkJob {
  const lines = [...sets]
    .sort((a, b) => (a.game < b.game ? -1 : a.game > b.game ? 1 : a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
    .map((s) => stableJson({ ...s, cards: perSet.get(`${s.game}/${s.code}`) ?? 0 }) + '\n');
  return { name: 'sets', input: hashOf(lines), count: lines.length, lines };
}

/** The job of `bulk/changes.ndjson.gz`: the change list, one entry per line. */
export function changesJob(changes: ChangeEntry[]): BulkJob {
  const lines = changes.map((c) => JSON.stringify(c) + '\n');
  return { name: 'changes', input: hashOf(lines), count: lines.length, lines };
}

function linesOf(job: BulkJob, dir: string): Iterable<string> {
  if (job.lines) return job.lines;
  const keys = job.keys ?? [];
  return (function* () {
    for (const key of keys) yield dataOf(gunzipSync(readFileSync(join(dir, key))).toString('utf8'), key) + '\n';
  })();
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
async function writeGzipLines(path: string, lines: Iterable<string>): Promise<{ size: number; sha256: string }> {
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
    for (const line of lines) {
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
  mkdirSync(join(dir, BULK_DIR), { recursive: true });
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
  const { size, sha256 } = await writeGzipLines(join(dir, file), linesOf(job, dir));
  return { name: job.name, file, count: job.count, size, sha256, input: job.input };
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
