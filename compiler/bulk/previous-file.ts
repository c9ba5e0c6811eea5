/**
 * The previous snapshot's bulk file, read back while the new one is written (write-file.ts): whole
 * compressed segments of a segmented file (segmented-gzip.ts), trusted only when the file matches the
 * manifest entry, so a file that does not is never half-used.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { BulkFile } from '../../snapshots/manifest.js';
import { readSegmentTable, segmentsOf, type SegmentFacts } from './segmented-gzip.js';

/** The previous file does not match its manifest entry: build without it. */
export class StalePreviousBulk extends Error {}

/** The previous snapshot's file of a document bulk job, and the objects its lines were made from. */
export interface PreviousFile {
  path: string;
  file: BulkFile;
  keys: string[];
  /** The digests of `keys`' objects (digests.ts). */
  shas: Uint8Array;
}

/** The previous file's segments: the lines each holds, and its compressed bytes with its table entry. */
export interface PreviousSegments {
  /** [start, end) positions in the previous file's keys, in file order. */
  segments: [number, number][];
  segment(s: number): { bytes: Buffer; facts: SegmentFacts };
  close(): void;
}

export function fileSha256(path: string): string {
  const fd = openSync(path, 'r');
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(1 << 20);
  try {
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) hash.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/**
 * The segments of the previous file, or null when it is not a segmented file of this format (an
 * older one is not read: the new file is built from the objects alone, as a full compile does).
 * Throws StalePreviousBulk when its table, size, line count or SHA-256 does not match the manifest
 * entry, and the file's own errors (gone: ENOENT) as they are.
 */
export function openPreviousSegments(prev: PreviousFile): PreviousSegments | null {
  const size = statSync(prev.path).size;
  if (size !== prev.file.size) throw new StalePreviousBulk(`${prev.path} is not the size its manifest entry says`);
  const table = readSegmentTable(prev.path, size);
  if (table === null) return null;
  const segments = segmentsOf(prev.keys);
  if (segments.length !== table.segments.length || prev.keys.length !== prev.file.count) {
    throw new StalePreviousBulk(`${prev.path}: its segment table does not fit its manifest entry`);
  }
  if (fileSha256(prev.path) !== prev.file.sha256) throw new StalePreviousBulk(`${prev.path} does not match its manifest entry`);
  const fd = openSync(prev.path, 'r');
  const ranges = rangeReader(fd, prev.path);
  return {
    segments,
    segment: (s) => ({ bytes: ranges.read(table.offsets[s], table.segments[s].compressed), facts: table.segments[s] }),
    close: () => closeSync(fd),
  };
}

const WINDOW = 1 << 20;

/**
 * Byte ranges of a file read in order of their offsets, through a 1 MiB window: the copied segments
 * of a previous file are a few KB each, and one read call per segment was about 0.7 s of the bulk
 * thread at a million cards. A range is valid until the next call. Throws StalePreviousBulk when the
 * file ends before a range does.
 */
export function rangeReader(fd: number, path: string): { read(offset: number, length: number): Buffer } {
  let window = Buffer.allocUnsafe(WINDOW);
  let start = 0;
  let end = 0;
  return {
    read(offset, length) {
      if (offset < start || offset + length > end) {
        if (length > window.length) window = Buffer.allocUnsafe(length);
        let n = 0;
        for (let got = -1; got !== 0 && n < window.length; n += got) got = readSync(fd, window, n, window.length - n, offset + n);
        start = offset;
        end = offset + n;
        if (offset + length > end) throw new StalePreviousBulk(`${path} is shorter than its segment table`);
      }
      return window.subarray(offset - start, offset - start + length);
    },
  };
}
