/**
 * What each document bulk file's segments hold, kept beside the snapshot for the next compile
 * (compiler state, like catalog.state and price-lines.sqlite: in no manifest, never published,
 * mirrored or served; only the current snapshot keeps it).
 *
 * A segment (segmented-gzip.ts) is found by its first key, and fingerprinted by the keys and object
 * digests of its lines. With these an incremental compile in which no key was added or removed patches
 * a file from the changed objects alone (patch-file.ts): each changed key is looked up among the first
 * keys, and only the segments that hold one (and the ones after them, whose dictionary they are) are
 * read back and compressed again. Without them the file's million keys were read back from the
 * previous object index, segmented and compared (about 9 s of the bulk thread at a million cards,
 * docs/benchmarks.md).
 *
 * The file's input fingerprint is the SHA-256 of its segments' digests in order (`documentInput`),
 * so a patch computes it from the segments it touched and the stored digests of the rest, and a full
 * build of the same objects gives the same value.
 *
 * @example
 *   const state = segmentStateOf(job.keys, job.shas);
 *   writeSegmentState(dir, 'cards', { sha256, state });
 *   readSegmentState(previousDir, 'cards', previousEntry.sha256)   // the same state, or null
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { segmentsOf } from './segmented-gzip.js';

/** The compiler state file in a snapshot's folder. */
export const SEGMENT_STATE_FILE = 'bulk-segments.sqlite';
/**
 * Bumped when the segments' meaning or the state's layout changes (their format, how a digest is
 * made, how they are stored). 2: one row per file with its segments in three columns, not one row per
 * segment (at a million cards the 300,000 rows cost the bulk thread about 1.3 s to read, in the phase
 * where both cores are busy reading the catalog, and their garbage as much again).
 */
const VERSION = 2;
const DIGEST = 32;

/** The segments of one document bulk file, in file order. */
export interface SegmentState {
  firstKeys: string[];
  /** Lines in each segment. */
  lines: Uint32Array;
  /** SHA-256 of each segment's lines' keys and object digests (segmentDigest), 32 bytes each. */
  digests: Uint8Array;
}

/** The digest of lines [a, b): each key, a space, its object's 32 digest bytes and a newline. */
export function segmentDigest(keys: readonly string[], shas: Uint8Array, a: number, b: number): Buffer {
  const h = createHash('sha256');
  for (let i = a; i < b; i++) h.update(keys[i]).update(' ').update(shas.subarray(i * DIGEST, (i + 1) * DIGEST)).update('\n');
  return h.digest();
}

/** The state of a file of `keys` (in file order) whose objects have digests `shas`. */
export function segmentStateOf(keys: readonly string[], shas: Uint8Array): SegmentState {
  const segments = segmentsOf(keys);
  const lines = new Uint32Array(segments.length);
  const digests = new Uint8Array(segments.length * DIGEST);
  const firstKeys = segments.map(([a, b], s) => {
    lines[s] = b - a;
    digests.set(segmentDigest(keys, shas, a, b), s * DIGEST);
    return keys[a];
  });
  return { firstKeys, lines, digests };
}

/** A document file's input fingerprint from its segments' digests (what `documentJob` and a patch record). */
export function inputOfSegments(digests: Uint8Array): string {
  return createHash('sha256').update('catalog-bulk-input/2\n').update(digests).digest('hex');
}

/** The input fingerprint of a document file of `keys` with digests `shas`. */
export function documentInput(keys: readonly string[], shas: Uint8Array): string {
  return inputOfSegments(segmentStateOf(keys, shas).digests);
}

/** The segment whose first key is the greatest not after `key` (-1 when `key` sorts before the first). */
export function segmentOfKey(firstKeys: readonly string[], key: string): number {
  let lo = 0;
  let hi = firstKeys.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (firstKeys[mid] <= key) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

function open(dir: string, readonly: boolean): Database.Database {
  const db = new Database(join(dir, SEGMENT_STATE_FILE), readonly ? { readonly: true, fileMustExist: true } : {});
  if (!readonly) {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    // A file's segments as three values: the first keys joined by newlines (a key is a URL path:
    // snapshots/keys.ts makes none with one), each segment's line count as 4 little-endian bytes, and
    // the 32-byte digests one after another.
    db.exec('CREATE TABLE IF NOT EXISTS bulk_files (name TEXT PRIMARY KEY, sha256 TEXT NOT NULL, segments INTEGER NOT NULL, first_keys TEXT NOT NULL, lines BLOB NOT NULL, digests BLOB NOT NULL)');
    db.pragma(`user_version = ${VERSION}`);
  }
  return db;
}

/** Records the segments of file `name` (whose bytes hash to `sha256`) in `dir`'s state, replacing any. */
export function writeSegmentState(dir: string, name: string, file: { sha256: string; state: SegmentState }): void {
  const db = open(dir, false);
  try {
    const { firstKeys, lines, digests } = file.state;
    if (firstKeys.some((key) => key.includes('\n'))) throw new Error(`bulk segment state: a key with a newline in ${name}`);
    const counts = Buffer.alloc(lines.length * 4);
    for (let s = 0; s < lines.length; s++) counts.writeUInt32LE(lines[s], s * 4);
    db.prepare('INSERT OR REPLACE INTO bulk_files (name, sha256, segments, first_keys, lines, digests) VALUES (?, ?, ?, ?, ?, ?)')
      .run(name, file.sha256, firstKeys.length, firstKeys.join('\n'), counts, Buffer.from(digests.buffer, digests.byteOffset, digests.byteLength));
  } finally {
    db.close();
  }
}

/**
 * The segments of file `name` in `dir`'s state, when they describe the file whose bytes hash to
 * `sha256`; null otherwise (no state, another version, another file, values missing or malformed).
 */
export function readSegmentState(dir: string, name: string, sha256: string): SegmentState | null {
  if (!existsSync(join(dir, SEGMENT_STATE_FILE))) return null;
  let db: Database.Database;
  try {
    db = open(dir, true);
  } catch {
    return null;
  }
  try {
    if (db.pragma('user_version', { simple: true }) !== VERSION) return null;
    const row = db.prepare('SELECT sha256, segments, first_keys, lines, digests FROM bulk_files WHERE name = ?').raw().get(name) as
      | [unknown, unknown, unknown, unknown, unknown]
      | undefined;
    if (row === undefined) return null;
    const [sha, segments, keys, counts, digestBytes] = row;
    if (sha !== sha256 || typeof segments !== 'number' || !Number.isInteger(segments) || segments < 0 || typeof keys !== 'string') return null;
    if (!Buffer.isBuffer(counts) || counts.length !== segments * 4 || !Buffer.isBuffer(digestBytes) || digestBytes.length !== segments * DIGEST) return null;
    const firstKeys = segments === 0 ? [] : keys.split('\n');
    if (firstKeys.length !== segments) return null;
    const lines = new Uint32Array(segments);
    for (let s = 0; s < segments; s++) {
      const n = counts.readUInt32LE(s * 4);
      if (n < 1 || (s > 0 && !(firstKeys[s - 1] < firstKeys[s]))) return null;
      lines[s] = n;
    }
    return { firstKeys, lines, digests: new Uint8Array(digestBytes) };
  } catch {
    // A damaged state file costs the shortcut, never the file: the caller builds it the long way.
    return null;
  } finally {
    db.close();
  }
}
