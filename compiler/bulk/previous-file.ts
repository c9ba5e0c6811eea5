/**
 * Reading the previous snapshot's bulk file back while the new one is written (write-bulk.ts): its
 * lines by position, or whole compressed segments of a segmented file (segmented-gzip.ts), each
 * checked against the manifest entry, so a file that does not match is never half-trusted.
 */
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { BulkFile } from '../../snapshots/manifest.js';
import { inflateSegment, readSegmentTable, segmentsOf, type SegmentFacts } from './segmented-gzip.js';

/** The previous file's checksum or line count did not match its manifest entry: build without it. */
export class StalePreviousBulk extends Error {}

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

/** The previous snapshot's file of a document bulk job, and the objects its lines were made from. */
export interface PreviousFile {
  path: string;
  file: BulkFile;
  keys: string[];
  /** The digests of `keys`' objects (digests.ts). */
  shas: Uint8Array;
}

/**
 * The previous file's lines by position, asked for in increasing order. A segmented file
 * (segmented-gzip.ts) inflates only the segments asked into; an older file (one gzip stream) is
 * read through once. Either way a file that does not match its manifest entry throws
 * StalePreviousBulk and the caller builds from the objects alone.
 */
export interface PreviousLines {
  /** The line at `position`, with its newline. */
  line(position: number): Promise<Buffer>;
  /** The compressed bytes of segment `s` and its table entry (segmented files only). */
  segment(s: number): { bytes: Buffer; facts: SegmentFacts };
  segments: [number, number][] | null;
  finish(): Promise<void>;
  close(): void;
}

function fileSha256(path: string): string {
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

export function openPreviousLines(prev: PreviousFile): PreviousLines {
  const size = statSync(prev.path).size;
  const table = size === prev.file.size ? readSegmentTable(prev.path, size) : null;
  const segments = table ? segmentsOf(prev.keys) : null;
  if (!table || !segments || segments.length !== table.segments.length || prev.keys.length !== prev.file.count) {
    // An older bulk file (one gzip stream), or a table that does not fit: read it through.
    const stream = previousLines(prev.path, prev.file);
    let read = 0;
    return {
      segments: null,
      async line(position) {
        let l = await stream.next();
        for (read++; read <= position; read++) l = await stream.next();
        return Buffer.from(l, 'utf8');
      },
      segment() {
        throw new Error('not a segmented bulk file');
      },
      finish: () => stream.finish(),
      close: () => stream.close(),
    };
  }
  if (fileSha256(prev.path) !== prev.file.sha256) throw new StalePreviousBulk(`${prev.path} does not match its manifest entry`);
  const fd = openSync(prev.path, 'r');
  const bytesOf = (s: number) => {
    const b = Buffer.allocUnsafe(table.segments[s].compressed);
    if (readSync(fd, b, 0, b.length, table.offsets[s]) !== b.length) throw new StalePreviousBulk(`${prev.path} is shorter than its segment table`);
    return b;
  };
  let held = -1;
  let lines: Buffer[] = [];
  let s = 0;
  return {
    segments,
    async line(position) {
      while (segments[s][1] <= position) s++;
      if (held !== s) {
        lines = splitLines(inflateSegment(bytesOf(s)));
        if (lines.length !== segments[s][1] - segments[s][0]) throw new StalePreviousBulk(`${prev.path}: segment ${s} has ${lines.length} lines`);
        held = s;
      }
      return lines[position - segments[s][0]];
    },
    segment: (s) => ({ bytes: bytesOf(s), facts: table.segments[s] }),
    async finish() {},
    close: () => closeSync(fd),
  };
}

/** The lines of a buffer, each a view ending with its newline. */
function splitLines(text: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let end = text.indexOf(10); end >= 0; end = text.indexOf(10, start)) {
    lines.push(text.subarray(start, end + 1));
    start = end + 1;
  }
  return lines;
}
