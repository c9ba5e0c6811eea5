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
/** Bumped when the segments' meaning changes (their format, or how a digest is made). */
const VERSION = 1;
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
    db.exec(`
      CREATE TABLE IF NOT EXISTS files (name TEXT PRIMARY KEY, sha256 TEXT NOT NULL, segments INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS segments (name TEXT NOT NULL, seq INTEGER NOT NULL, first_key TEXT NOT NULL, lines INTEGER NOT NULL, digest BLOB NOT NULL, PRIMARY KEY (name, seq)) WITHOUT ROWID;
    `);
    db.pragma(`user_version = ${VERSION}`);
  }
  return db;
}

/** Records the segments of file `name` (whose bytes hash to `sha256`) in `dir`'s state, replacing any. */
export function writeSegmentState(dir: string, name: string, file: { sha256: string; state: SegmentState }): void {
  const db = open(dir, false);
  try {
    const { firstKeys, lines, digests } = file.state;
    const put = db.prepare('INSERT INTO segments (name, seq, first_key, lines, digest) VALUES (?, ?, ?, ?, ?)');
    db.transaction(() => {
      db.prepare('DELETE FROM files WHERE name = ?').run(name);
      db.prepare('DELETE FROM segments WHERE name = ?').run(name);
      for (let s = 0; s < firstKeys.length; s++) put.run(name, s, firstKeys[s], lines[s], digests.subarray(s * DIGEST, (s + 1) * DIGEST));
      // Last: a file is described only once all its segments are.
      db.prepare('INSERT INTO files (name, sha256, segments) VALUES (?, ?, ?)').run(name, file.sha256, firstKeys.length);
    })();
  } finally {
    db.close();
  }
}

/**
 * The segments of file `name` in `dir`'s state, when they describe the file whose bytes hash to
 * `sha256`; null otherwise (no state, another version, another file, rows missing or malformed).
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
    const file = db.prepare('SELECT sha256, segments FROM files WHERE name = ?').get(name) as { sha256: string; segments: number } | undefined;
    if (file === undefined || file.sha256 !== sha256) return null;
    const rows = db.prepare('SELECT seq, first_key, lines, digest FROM segments WHERE name = ? ORDER BY seq').raw().all(name) as [number, string, number, Buffer][];
    if (rows.length !== file.segments) return null;
    const lines = new Uint32Array(rows.length);
    const digests = new Uint8Array(rows.length * DIGEST);
    const firstKeys: string[] = [];
    for (let s = 0; s < rows.length; s++) {
      const [seq, key, n, digest] = rows[s];
      if (seq !== s || n < 1 || digest.length !== DIGEST || (s > 0 && !(firstKeys[s - 1] < key))) return null;
      firstKeys.push(key);
      lines[s] = n;
      digests.set(digest, s * DIGEST);
    }
    return { firstKeys, lines, digests };
  } catch {
    // A damaged state file costs the shortcut, never the file: the caller builds it the long way.
    return null;
  } finally {
    db.close();
  }
}
