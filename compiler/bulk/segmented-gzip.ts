/**
 * The encoding of the document bulk files (`cards`, `figures`, `oracle`): one ordinary gzip member
 * whose deflate stream is a run of separately compressed segments, so an incremental compile copies
 * the compressed bytes of every segment whose lines did not change instead of compressing the whole
 * file again (issue 17: re-compressing the cards file whole was about 4.5 s of CPU of an incremental
 * compile in which 1% of the lines changed; docs/benchmarks.md).
 *
 *   gzip header, FLG.FCOMMENT set, MTIME 0, OS 3; the comment is the segment table:
 *     "catalog-bulk-segments/3 <compressed length>:<CRC-32 hex>:<length> ..." (one entry a segment)
 *   segment 1: raw deflate of its lines, ended by a sync flush (00 00 ff ff)
 *   segment 2: raw deflate of its lines with the last DICTIONARY_BYTES of segment 1's lines as the
 *              preset dictionary, ended by a sync flush
 *   ...
 *   an empty final block (03 00), CRC-32 and length of all the lines (RFC 1952 trailer)
 *
 * Every gzip reader (zlib, gzip/zcat, Python, Go, browsers) reads it as one member: a sync flush is
 * an empty stored block, the comment is a standard header field readers skip, and a segment's
 * dictionary is exactly the text the reader has just written out, which its window holds. So a
 * segment's bytes depend on its own lines and its predecessor's alone: it is copied from the previous
 * file when both are unchanged, and the copy is byte-identical to a fresh compression, so an
 * incremental build and a fresh build of the same lines are the same file
 * (test/compiler/bulk/segmented-bulk.test.ts). The table's CRC-32 and length of each segment give the
 * file's CRC-32 by combination, so a copied segment is never inflated.
 *
 * Segments are short and bounded: one ends after a line whose key hashes to 0 modulo SEGMENT_SPREAD
 * once it holds SEGMENT_MIN lines, or at SEGMENT_MAX lines (content-defined, like rsyncable gzip: a
 * new or removed key moves the boundaries near it only). Measured on the 1,000,000-card `cards` file
 * (docs/benchmarks.md, "Bulk files in segments"): with 1% of the lines changed, 10.8% of its bytes
 * are compressed again at 1.134 of one stream's size, against 19.9% at 1.071 for format 2's 5 to 15
 * lines and 12 KiB (the compression is most of the bulk thread's work in an incremental compile, and
 * that thread is a third of its CPU), and 62% for the unbounded 64-line segments without a dictionary
 * of format 1 (big segments hold most of the bytes and are the likeliest to hold a change).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { constants, crc32, deflateRawSync } from 'node:zlib';
import { GZIP_LEVEL } from '../../snapshots/codec.js';

// Format 3: segments of 3 to 8 lines against 8 KiB of dictionary (format 2 was 5 to 15 lines, 12 KiB).
export const TABLE_TAG = 'catalog-bulk-segments/3';
/** A segment of at least SEGMENT_MIN lines ends after a line whose key hashes to 0 modulo this. */
export const SEGMENT_SPREAD = 5;
export const SEGMENT_MIN = 3;
export const SEGMENT_MAX = 8;
/** How much of the previous segment's lines a segment is compressed against (at most zlib's 32 KiB window). */
export const DICTIONARY_BYTES = 8 * 1024;
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
 * @example segmentsOf(['a', 'b', 'c'])  // [[0, 3]]: fewer than SEGMENT_MIN lines
 */
export function segmentsOf(keys: readonly string[]): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (let i = 0; i < keys.length; i++) {
    const lines = i + 1 - start;
    if ((lines >= SEGMENT_MIN && keyHash(keys[i]) % SEGMENT_SPREAD === 0) || lines >= SEGMENT_MAX || i === keys.length - 1) {
      out.push([start, i + 1]);
      start = i + 1;
    }
  }
  return out;
}

/**
 * One segment's lines compressed against `before` (the previous segment's lines, of which the last
 * DICTIONARY_BYTES are used; empty for the first segment), ending on a byte boundary (sync flush).
 */
export function compressSegment(text: Buffer, before: Buffer): Buffer {
  const options = { level: GZIP_LEVEL, strategy: constants.Z_DEFAULT_STRATEGY, finishFlush: constants.Z_SYNC_FLUSH };
  if (before.length === 0) return deflateRawSync(text, options);
  return deflateRawSync(text, { ...options, dictionary: before.subarray(Math.max(0, before.length - DICTIONARY_BYTES)) });
}

/** One segment as the table records it: compressed length, CRC-32 and length of its lines. */
export interface SegmentFacts {
  compressed: number;
  crc: number;
  length: number;
}

/** The gzip header holding the segment table. */
export function segmentedHeader(segments: readonly SegmentFacts[]): Buffer {
  const table = segments.map((s) => `${s.compressed}:${(s.crc >>> 0).toString(16)}:${s.length}`).join(' ');
  const comment = Buffer.from(`${TABLE_TAG} ${table}\0`, 'latin1');
  return Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, FLG_FCOMMENT, 0, 0, 0, 0, 0, 0x03]), comment]);
}

/** The end of the stream: an empty final block, then the CRC-32 and length (mod 2^32) of every line. */
export function segmentedTrailer(crc: number, length: number): Buffer {
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  return Buffer.concat([FINAL_BLOCK, trailer]);
}

/**
 * A segment compressed from `text` against `before` (compressSegment), with the facts its table entry records.
 */
export function segmentOf(text: Buffer, before: Buffer): { bytes: Buffer; facts: SegmentFacts } {
  const bytes = compressSegment(text, before);
  return { bytes, facts: { compressed: bytes.length, crc: crc32(text) >>> 0, length: text.length } };
}

/**
 * The CRC-32 of the whole file from its segments' CRCs, without their lines: zlib's crc32_combine
 * (polynomial arithmetic modulo the CRC polynomial), so a copied segment is never inflated.
 */
export function fileChecksum() {
  let crc = 0;
  let length = 0;
  return {
    add(facts: SegmentFacts) {
      crc = crc32Combine(crc, facts.crc, facts.length);
      length += facts.length;
    },
    trailer: () => segmentedTrailer(crc, length),
  };
}

const POLY = 0xedb88320;
/** a(x) * b(x) modulo the CRC-32 polynomial, bit-reflected as zlib keeps them. */
function multModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}
/** x^(2^k) modulo the polynomial, k = 0..31. */
const X2N: number[] = (() => {
  const t: number[] = [];
  let p = 1 << 30;
  t.push(p);
  for (let n = 1; n < 32; n++) t.push((p = multModP(p, p)));
  return t;
})();
/** x^(n * 2^k) modulo the polynomial. */
function x2nModP(n: number, k: number): number {
  let p = 0x80000000;
  while (n > 0) {
    if (n % 2 === 1) p = multModP(X2N[k & 31], p);
    n = Math.floor(n / 2);
    k++;
  }
  return p;
}
/** zlib's crc32_combine: the CRC-32 of A followed by B from crc(A), crc(B) and B's length. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multModP(x2nModP(lengthB, 3), crcA >>> 0) ^ (crcB >>> 0)) >>> 0;
}

export interface SegmentTable {
  /** Offset in the file of each segment's compressed bytes. */
  offsets: number[];
  segments: SegmentFacts[];
}

/**
 * The segment table of a file written by this module, or null when the file is not one (an older
 * bulk file: one gzip stream, or segments of format 1): the caller then builds without it. `size` is the file's
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
    const segments: SegmentFacts[] = [];
    const offsets: number[] = [];
    let at = end + 1;
    for (const entry of comment.slice(1)) {
      const [compressed, crc, length] = entry.split(':');
      const facts = { compressed: Number(compressed), crc: parseInt(crc, 16), length: Number(length) };
      if (!Number.isSafeInteger(facts.compressed) || facts.compressed <= 0 || !Number.isSafeInteger(facts.length) || !(facts.crc >= 0)) return null;
      offsets.push(at);
      segments.push(facts);
      at += facts.compressed;
    }
    return at + FINAL_BLOCK.length + 8 === size ? { offsets, segments } : null;
  } finally {
    closeSync(fd);
  }
}
