/**
 * How a bulk file's bytes are written (write-bulk.ts decides what goes in each file and when the
 * previous snapshot's file is taken whole):
 *
 *   - a document file (`cards`, `figures`, `oracle`) in segments of gzip (segmented-gzip.ts): a
 *     segment whose keys and objects are a previous segment's is copied compressed; in the others an
 *     unchanged object's line comes from the previous file, a new or changed one from its object;
 *   - a file of plain lines (`sets`, `changes`) streamed through one gzip.
 *
 * Both write to a temporary name and rename it into place, hashing the bytes as written, so a failed
 * build leaves no partial file.
 *
 * @example
 *   const { size, sha256 } = await writeDocumentFile(job, join(dir, 'bulk/cards.ndjson.gz'), dir, previousDir, previousFile);
 *   const changes = await writeGzipLines(join(dir, 'bulk/changes.ndjson.gz'), lines);
 */
import { createHash } from 'node:crypto';
import { closeSync, createWriteStream, openSync, readFileSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { constants, createGzip, gunzipSync } from 'node:zlib';
import { GZIP_LEVEL, sha256Hex } from '../../snapshots/codec.js';
import { createPackReader } from '../../snapshots/packs/pack-reader.js';
import { fileChecksum, segmentedHeader, segmentOf, segmentsOf, type SegmentFacts } from './segmented-gzip.js';
import { openPreviousLines, type PreviousFile } from './previous-file.js';
import { digestCount, digestHex, sameDigest } from './digests.js';
import type { BulkJob } from './write-bulk.js';

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

/** Lines are handed to gzip in batches of about this many characters (one write per line costs more than the compression). */
export const BATCH_CHARS = 256 * 1024;

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

/** True when new segment [a, b) of `job` holds exactly previous segment [c, d)'s keys and objects. */
function sameSegment(job: { keys: string[]; shas: Uint8Array }, [a, b]: [number, number], prev: PreviousFile, [c, d]: [number, number]): boolean {
  if (b - a !== d - c) return false;
  for (let i = 0; i < b - a; i++) if (job.keys[a + i] !== prev.keys[c + i] || !sameDigest(job.shas, a + i, prev.shas, c + i)) return false;
  return true;
}

/**
 * Writes a document bulk file in segments (segmented-gzip.ts). A segment whose keys and objects are
 * those of a previous segment is copied compressed; in the others, an unchanged object's line comes
 * from the previous file and a new or changed one is read back from its object.
 */
export async function writeDocumentFile(job: BulkJob, path: string, dir: string, previousDir: string | null, prevFile: PreviousFile | null): Promise<{ size: number; sha256: string }> {
  const keys = job.keys ?? [];
  const shas = job.shas ?? new Uint8Array(0);
  const stored = job.stored;
  const packs = stored ? createPackReader({ dir: stored.packsDir }) : null;
  const objectLine = (i: number): Buffer => {
    const bytes = packs && stored ? packs.read(stored.packNames[stored.packs[i]], stored.offsets[i], stored.sizes[i]) : readObject(dir, previousDir, keys[i], i < digestCount(shas) ? digestHex(shas, i) : undefined);
    return Buffer.from(dataOf(gunzipSync(bytes).toString('utf8'), keys[i]) + '\n', 'utf8');
  };
  const prev = prevFile ? openPreviousLines(prevFile) : null;
  const previousSegments = new Map<string, number>();
  if (prev?.segments && prevFile) for (let s = 0; s < prev.segments.length; s++) previousSegments.set(prevFile.keys[prev.segments[s][0]], s);
  const body = `${path}.body`;
  const bodyFd = openSync(body, 'w');
  const table: SegmentFacts[] = [];
  const sum = fileChecksum();
  const put = (bytes: Buffer, facts: SegmentFacts) => {
    writeSync(bodyFd, bytes);
    table.push(facts);
    sum.add(facts);
  };
  try {
    let p = 0;
    for (const seg of segmentsOf(keys)) {
      const s = previousSegments.get(keys[seg[0]]);
      if (s !== undefined && prev && prevFile && sameSegment({ keys, shas }, seg, prevFile, prev.segments![s])) {
        const copied = prev.segment(s);
        put(copied.bytes, copied.facts);
        continue;
      }
      const text: Buffer[] = [];
      for (let i = seg[0]; i < seg[1]; i++) {
        if (prev && prevFile) {
          // Both lists are in key order: step past the previous keys that are gone.
          while (p < prevFile.keys.length && prevFile.keys[p] < keys[i]) p++;
          if (p < prevFile.keys.length && prevFile.keys[p] === keys[i] && sameDigest(prevFile.shas, p, shas, i)) {
            text.push(await prev.line(p++));
            continue;
          }
        }
        text.push(objectLine(i));
      }
      const made = segmentOf(Buffer.concat(text));
      put(made.bytes, made.facts);
    }
    await prev?.finish();
    closeSync(bodyFd);
    return assemble(path, body, segmentedHeader(table), sum.trailer());
  } catch (err) {
    closeSync(bodyFd);
    rmSync(body, { force: true });
    throw err;
  } finally {
    prev?.close();
    packs?.close();
  }
}

/** Header, then the body file, then the trailer, into `path` (via a temporary name), hashed as written. */
function assemble(path: string, body: string, header: Buffer, trailer: Buffer): { size: number; sha256: string } {
  const tmp = `${path}.tmp`;
  const out = openSync(tmp, 'w');
  const hash = createHash('sha256');
  let size = 0;
  const put = (b: Buffer) => {
    writeSync(out, b);
    hash.update(b);
    size += b.length;
  };
  try {
    put(header);
    const fd = openSync(body, 'r');
    const buf = Buffer.allocUnsafe(1 << 20);
    try {
      for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) put(buf.subarray(0, n));
    } finally {
      closeSync(fd);
    }
    put(trailer);
  } catch (err) {
    closeSync(out);
    rmSync(tmp, { force: true });
    throw err;
  } finally {
    rmSync(body, { force: true });
  }
  closeSync(out);
  renameSync(tmp, path);
  return { size, sha256: hash.digest('hex') };
}

/**
 * Streams `lines` through gzip into `path` (via a temporary name), hashing the compressed bytes. The
 * pieces need not be whole lines (a file read in chunks): deflate without flushes gives the same
 * bytes however its input is cut.
 */
export async function writeGzipLines(path: string, lines: AsyncIterable<string>): Promise<{ size: number; sha256: string }> {
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

