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
 * @example
 *   const bulk = await writeBulkFiles({ dir, entries, changes, sets, cardsPerSet, previousDir });
 *   bulk[0]  // { name: 'cards', file: 'bulk/cards.ndjson.gz', count: 5000, size, sha256, input }
 */
import { createHash } from 'node:crypto';
import { copyFileSync, createWriteStream, linkSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
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

export interface BulkInput {
  /** The snapshot folder being written (objects already in place). */
  dir: string;
  /** Every object of the snapshot, sorted by key. */
  entries: ManifestEntry[];
  changes: ChangeEntry[];
  sets: SetRecord[];
  /** Cards per `<game>/<code>`. */
  cardsPerSet: Map<string, number>;
  /** The previous snapshot's folder, to re-use unchanged bulk files. */
  previousDir: string | null;
}

interface BulkSpec {
  name: BulkName;
  /** Fingerprint of everything the file is built from. */
  input: string;
  count: number;
  lines: () => Iterable<string>;
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

/** A bulk file of document `data`, one line per object whose key matches. */
function documentSpec(name: BulkName, dir: string, entries: ManifestEntry[], pattern: RegExp): BulkSpec {
  const picked = entries.filter((e) => pattern.test(e.key));
  return {
    name,
    input: hashOf(picked.map((e) => `${e.key} ${e.sha256}`)),
    count: picked.length,
    lines: function* () {
      for (const e of picked) yield dataOf(gunzipSync(readFileSync(join(dir, e.key))).toString('utf8'), e.key) + '\n';
    },
  };
}

function specsOf(input: BulkInput): BulkSpec[] {
  const sets = [...input.sets]
    .sort((a, b) => (a.game < b.game ? -1 : a.game > b.game ? 1 : a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
    .map((s) => stableJson({ ...s, cards: input.cardsPerSet.get(`${s.game}/${s.code}`) ?? 0 }) + '\n');
  const changes = input.changes.map((c) => JSON.stringify(c) + '\n');
  return [
    documentSpec('cards', input.dir, input.entries, CARD_30D),
    documentSpec('figures', input.dir, input.entries, FIGURE),
    documentSpec('oracle', input.dir, input.entries, ORACLE),
    { name: 'sets', input: hashOf(sets), count: sets.length, lines: () => sets },
    { name: 'changes', input: hashOf(changes), count: changes.length, lines: () => changes },
  ];
}

async function previousBulk(previousDir: string | null): Promise<Map<string, BulkFile>> {
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

export async function writeBulkFiles(input: BulkInput): Promise<BulkFile[]> {
  mkdirSync(join(input.dir, BULK_DIR), { recursive: true });
  const before = await previousBulk(input.previousDir);
  const files: BulkFile[] = [];
  for (const spec of specsOf(input)) {
    const file = bulkFileOf(spec.name);
    const prev = before.get(spec.name);
    if (prev && prev.input === spec.input && prev.file === file) {
      try {
        linkOrCopy(join(input.previousDir!, prev.file), join(input.dir, file));
        files.push({ ...prev });
        continue;
      } catch {
        // the previous file is gone: build it again below
      }
    }
    const { size, sha256 } = await writeGzipLines(join(input.dir, file), spec.lines());
    files.push({ name: spec.name, file, count: spec.count, size, sha256, input: spec.input });
  }
  return files;
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
