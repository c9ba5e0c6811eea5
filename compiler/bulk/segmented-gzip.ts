/**
 * The encoding of the document bulk files (`cards`, `figures`, `oracle`): one ordinary gzip member
 * whose deflate stream is a run of independently compressed segments, so an incremental compile
 * copies the compressed bytes of every segment whose lines did not change instead of compressing
 * the whole file again (issue 17: re-compressing the cards file whole was about 4.5 s of CPU of an
 * incremental compile in which 1% of the lines changed; docs/benchmarks.md).
 *
 *   gzip header, FLG.FCOMMENT set, MTIME 0, OS 3; the comment is the segment table:
 *     "catalog-bulk-segments/1 <compressed length of segment 1> <of segment 2> ..."
 *   segment 1: raw deflate of its lines from a fresh compressor, ended by a sync flush (00 00 ff ff)
 *   segment 2: the same
 *   ...
 *   an empty final block (03 00), CRC-32 and length of all the lines (RFC 1952 trailer)
 *
 * Every gzip reader (zlib, gzip/zcat, Python, Go, browsers) reads it as one member: a sync flush is
 * an empty stored block, and the comment is a standard header field readers skip. Because each
 * segment starts from an empty dictionary, its bytes depend on its lines alone: a segment copied from
 * the previous file is byte-identical to one compressed again, so an incremental build and a fresh
 * build of the same lines are the same file (test/compiler/bulk/bulk-reuse.test.ts).
 *
 * Segments end after a line whose key hashes to 0 modulo SEGMENT_SPREAD (content-defined, like
 * rsyncable gzip): a new or removed key moves no boundary except its own segment's. 32 lines on
 * average: with 1% of the lines changed uniformly, 0.99^32 = 72% of the segments are copied; the
 * fresh dictionary per segment costs about 3% of the size (docs/benchmarks.md).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { constants, crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import { GZIP_LEVEL } from '../../snapshots/codec.js';

const TABLE_TAG = 'catalog-bulk-segments/1';
/** A segment ends after a line whose key hashes to 0 modulo this: 32 lines on average. */
export const SEGMENT_SPREAD = 32;
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
const FLG_FCOMMENT = 0x10;

/** FNV-1a of a key: cheap, and stable across runs and machines (the boundaries must be). */
function keyHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The segments of a list of keys in file order: [start, end) line positions. The last segment ends
 * with the list whatever its last key.
 *
 * @example segmentsOf(['a', 'b', 'c'])  // [[0, 3]] unless 'a' or 'b' ends a segment
 */
export function segmentsOf(keys: readonly string[]): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (let i = 0; i < keys.length; i++) {
    if (keyHash(keys[i]) % SEGMENT_SPREAD === 0 || i === keys.length - 1) {
      out.push([start, i + 1]);
      start = i + 1;
    }
  }
  return out;
}

/** One segment's lines compressed from a fresh dictionary, ending on a byte boundary (sync flush). */
export function compressSegment(text: Buffer): Buffer {
  return deflateRawSync(text, { level: GZIP_LEVEL, strategy: constants.Z_DEFAULT_STRATEGY, finishFlush: constants.Z_SYNC_FLUSH });
}

/** The lines of a segment compressed by `compressSegment`. */
export function inflateSegment(bytes: Buffer): Buffer {
  return inflateRawSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH });
}

/** The gzip header holding the segment table. */
export function segmentedHeader(lengths: readonly number[]): Buffer {
  const comment = Buffer.from(`${TABLE_TAG} ${lengths.join(' ')}\0`, 'latin1');
  return Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, FLG_FCOMMENT, 0, 0, 0, 0, 0, 0x03]), comment]);
}

/** The end of the stream: an empty final block, then the CRC-32 and length (mod 2^32) of every line. */
export function segmentedTrailer(crc: number, length: number): Buffer {
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  return Buffer.concat([FINAL_BLOCK, trailer]);
}

/** Running CRC-32 and length of the uncompressed lines. */
export function lineChecksum() {
  let crc = 0;
  let length = 0;
  return {
    add(text: Buffer) {
      crc = crc32(text, crc);
      length += text.length;
    },
    trailer: () => segmentedTrailer(crc, length),
  };
}

export interface SegmentTable {
  /** Offset in the file of each segment's compressed bytes, and their length. */
  offsets: number[];
  lengths: number[];
}

/**
 * The segment table of a file written by this module, or null when the file is not one (an older
 * bulk file, one gzip stream): the caller then reads its lines the slow way. `size` is the file's
 * size; a table whose lengths do not add up to it is not trusted.
 */
export function readSegmentTable(path: string, size: number): SegmentTable | null {
  const fd = openSync(path, 'r');
  try {
    let head = Buffer.alloc(0);
    const chunk = Buffer.alloc(64 * 1024);
    let end = -1;
    while (end < 0) {
      const n = readSync(fd, chunk, 0, chunk.length, head.length);
      if (n === 0) return null;
      head = Buffer.concat([head, chunk.subarray(0, n)]);
      if (head.length >= 10 && (head[0] !== 0x1f || head[1] !== 0x8b || head[3] !== FLG_FCOMMENT)) return null;
      end = head.indexOf(0, 10);
    }
    const comment = head.toString('latin1', 10, end).split(' ');
    if (comment[0] !== TABLE_TAG) return null;
    const lengths = comment.slice(1).map(Number);
    const offsets: number[] = [];
    let at = end + 1;
    for (const l of lengths) {
      if (!Number.isSafeInteger(l) || l <= 0) return null;
      offsets.push(at);
      at += l;
    }
    return at + FINAL_BLOCK.length + 8 === size ? { offsets, lengths } : null;
  } finally {
    closeSync(fd);
  }
}
