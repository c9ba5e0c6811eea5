/**
 * How a bulk file's bytes are written (write-bulk.ts decides what goes in each file and when the
 * previous snapshot's file is taken whole):
 *
 *   - a document file (`cards`, `figures`, `oracle`) in segments of gzip (segmented-gzip.ts): a
 *     segment whose keys and objects (and its predecessor's) are the previous file's is copied
 *     compressed; the others are compressed from their objects' lines;
 *   - a file of plain lines (`sets`, `changes`) streamed through one gzip.
 *
 * Both write to a temporary name and rename it into place, hashing the bytes as written, so a failed
 * build leaves no partial file.
 *
 * @example
 *   const { size, sha256 } = await writeDocumentFile(job, join(dir, 'bulk/cards.ndjson.gz'), dir, previousDir, previousFile);
 *   const changes = await writeGzipLines(join(dir, 'bulk/changes.ndjson.gz'), lines);
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, createWriteStream, openSync, readFileSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { constants, createGzip } from 'node:zlib';
import { GZIP_LEVEL, sha256Hex } from '../../snapshots/codec.js';
import { createGunzipEngine } from '../../snapshots/gzip-engine.js';
import { createPackReader } from '../../snapshots/packs/pack-reader.js';
import { coalescedReads } from './object-reads.js';
import { DICTIONARY_BYTES, fileChecksum, segmentedHeader, segmentOf, segmentsOf, type SegmentFacts } from './segmented-gzip.js';
import { openPreviousSegments, type PreviousFile } from './previous-file.js';
import { segmentStateOf, type SegmentState } from './segment-state.js';
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

const ENVELOPE_START = Buffer.from('{"apiVersion":');
const DATA_MEMBER = Buffer.from(',"data":');
const KIND_MEMBER = Buffer.from(',"kind":"');

/**
 * One bulk line from an object's stored bytes: its envelope's `data`, then a newline. Sliced from the
 * inflated bytes as `dataOf` slices the text (the markers are ASCII, which no byte of a multi-byte
 * UTF-8 character is), so the line is not decoded into a string and encoded again.
 */
export function lineOfObject(gunzip: (bytes: Buffer, reuse: boolean) => Buffer, bytes: Buffer, key: string): Buffer {
  const json = gunzip(bytes, true);
  const start = json.indexOf(DATA_MEMBER);
  const end = json.lastIndexOf(KIND_MEMBER);
  if (start > 0 && end > start && json.compare(ENVELOPE_START, 0, ENVELOPE_START.length, 0, ENVELOPE_START.length) === 0) {
    const line = Buffer.allocUnsafe(end - start - DATA_MEMBER.length + 1);
    json.copy(line, 0, start + DATA_MEMBER.length, end);
    line[line.length - 1] = 0x0a;
    return line;
  }
  return Buffer.from(dataOf(json.toString('utf8'), key) + '\n', 'utf8');
}

/** Objects read at first from the end of a segment for its dictionary: about DICTIONARY_BYTES of 2 KB card lines. */
export const TAIL_OBJECTS = 6;

/**
 * The dictionary a segment is compressed against: the last lines of the segment before (its objects
 * a..b-1, read with `objects`, keys from `keyAt`), as many as DICTIONARY_BYTES takes, or all of them.
 * The objects are read from the end, TAIL_OBJECTS first and twice as many each time after: the
 * segment's first lines are rarely needed (segments hold 5-15 lines, a dictionary about 6 of a card
 * file's), and on a host whose page cache does not hold the packs, reading a whole segment's objects
 * was most of an incremental compile's bulk thread (docs/benchmarks.md, "A million cards in three rounds
 * again; the segment tails of a patch read from the end").
 */
export function dictionaryTail(gunzip: (bytes: Buffer, reuse: boolean) => Buffer, objects: (a: number, b: number) => readonly Buffer[], a: number, b: number, keyAt: (i: number) => string): Buffer {
  const lines: Buffer[] = [];
  let length = 0;
  let step = TAIL_OBJECTS;
  for (let end = b; end > a && length < DICTIONARY_BYTES; step *= 2) {
    const start = Math.max(a, end - step);
    const read = objects(start, end);
    for (let i = read.length - 1; i >= 0 && length < DICTIONARY_BYTES; i--) length += lines[lines.push(lineOfObject(gunzip, read[i], keyAt(start + i))) - 1].length;
    end = start;
  }
  return Buffer.concat(lines.reverse());
}

/**
 * A file written in 1 MiB pieces and hashed as written: a segment is a few KB, and one write call
 * each was about 2 s of the bulk thread at a million cards (docs/benchmarks.md).
 */
export function bufferedOutput(fd: number, hash: Hash | null): { put(bytes: Uint8Array): void; finish(): number } {
  const buf = Buffer.allocUnsafe(1 << 20);
  let used = 0;
  let size = 0;
  const write = (bytes: Uint8Array) => {
    for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
    hash?.update(bytes);
  };
  const flush = () => {
    if (used > 0) write(buf.subarray(0, used));
    used = 0;
  };
  return {
    put(bytes) {
      size += bytes.length;
      if (used + bytes.length > buf.length) flush();
      if (bytes.length >= buf.length) write(bytes);
      else {
        buf.set(bytes, used);
        used += bytes.length;
      }
    },
    finish() {
      flush();
      return size;
    },
  };
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
 * Writes a document bulk file in segments (segmented-gzip.ts). A segment is copied compressed from
 * the previous file when it and the segment before it (its dictionary) hold exactly the keys and
 * objects of two consecutive previous segments; the others are compressed from their objects' lines.
 */
export async function writeDocumentFile(
  job: BulkJob, path: string, dir: string, previousDir: string | null, prevFile: PreviousFile | null,
): Promise<{ size: number; sha256: string; state: SegmentState | null }> {
  const keys = job.keys ?? [];
  const shas = job.shas ?? new Uint8Array(0);
  const stored = job.stored;
  const packs = stored ? createPackReader({ dir: stored.packsDir }) : null;
  // One inflate stream for every object (gunzipSync makes one per call: 5-8 µs of a 1 KB object's ~11).
  const gunzip = createGunzipEngine();
  /** The stored bytes of objects [a, b): from the packs, neighbours read together, or from per-URL files. */
  const objects =
    packs && stored
      ? coalescedReads(packs, { pack: (i) => stored.packNames[stored.packs[i]], offset: (i) => stored.offsets[i], size: (i) => stored.sizes[i] })
      : (a: number, b: number): Buffer[] => {
          const out: Buffer[] = [];
          for (let i = a; i < b; i++) out.push(readObject(dir, previousDir, keys[i], i < digestCount(shas) ? digestHex(shas, i) : undefined));
          return out;
        };
  const textOf = ([a, b]: [number, number]): Buffer => Buffer.concat(objects(a, b).map((o, i) => lineOfObject(gunzip, o, keys[a + i])));
  /** The last lines of a segment, as many as its dictionary use takes (DICTIONARY_BYTES), or all. */
  const tailOf = ([a, b]: [number, number]): Buffer => dictionaryTail(gunzip, objects, a, b, (i) => keys[i]);
  const prev = prevFile ? openPreviousSegments(prevFile) : null;
  // Each previous segment by its first key (a segment starts at the same key in both files or is not copied).
  const previousSegments = new Map<string, number>();
  if (prev && prevFile) for (let s = 0; s < prev.segments.length; s++) previousSegments.set(prevFile.keys[prev.segments[s][0]], s);
  /** The previous segment new segment `seg` is a copy of, or undefined. */
  const sameAs = (seg: [number, number]): number | undefined => {
    const s = previousSegments.get(keys[seg[0]]);
    return s !== undefined && prev && prevFile && sameSegment({ keys, shas }, seg, prevFile, prev.segments[s]) ? s : undefined;
  };
  const body = `${path}.body`;
  const bodyFd = openSync(body, 'w');
  const table: SegmentFacts[] = [];
  const sum = fileChecksum();
  const bodyOut = bufferedOutput(bodyFd, null);
  const put = (bytes: Buffer, facts: SegmentFacts) => {
    bodyOut.put(bytes);
    table.push(facts);
    sum.add(facts);
  };
  try {
    const segments = segmentsOf(keys);
    // The lines of the segment before, when this build compressed it; null when it was copied (then
    // the tail its successor needs is read back only if that one is compressed).
    let before: Buffer | null = Buffer.alloc(0);
    // The previous segment that the segment before holds the same lines as, if any.
    let beforeSame: number | undefined = undefined;
    for (let k = 0; k < segments.length; k++) {
      const s = sameAs(segments[k]);
      // A segment's dictionary is the lines of the one before: copied only when that one holds the
      // lines of previous segment s - 1 (or both are first).
      if (s !== undefined && prev && (k === 0 ? s === 0 : s > 0 && beforeSame === s - 1)) {
        const copied = prev.segment(s);
        put(copied.bytes, copied.facts);
        before = null;
        beforeSame = s;
        continue;
      }
      const text = textOf(segments[k]);
      const made = segmentOf(text, before ?? tailOf(segments[k - 1]));
      put(made.bytes, made.facts);
      before = text;
      beforeSame = s;
    }
    bodyOut.finish();
    closeSync(bodyFd);
    const written = assemble(path, body, segmentedHeader(table), sum.trailer());
    return { ...written, state: digestCount(shas) === keys.length ? segmentStateOf(keys, shas) : null };
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
  const file = bufferedOutput(out, hash);
  let size = 0;
  try {
    file.put(header);
    const fd = openSync(body, 'r');
    const buf = Buffer.allocUnsafe(1 << 20);
    try {
      for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) file.put(buf.subarray(0, n));
    } finally {
      closeSync(fd);
    }
    file.put(trailer);
    size = file.finish();
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

