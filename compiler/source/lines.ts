/**
 * Splits a byte stream into NDJSON lines without holding more than one line (plus one chunk) in
 * memory. Lines end with `\n` or `\r\n`; the last line may lack its newline; blank (whitespace
 * only) lines are skipped but counted, so line numbers match what an editor shows.
 *
 * A chunk may be a buffer its producer fills again once the next chunk is asked for (fileChunks):
 * the part of a line it holds at its end is copied, never kept.
 *
 * @example
 *   for await (const line of splitLines(fileChunks(await fs.promises.open('cards.ndjson')))) console.log(line.lineNo, line.text);
 */
import type { FileHandle } from 'node:fs/promises';
import type { SourceLine } from './catalog-source.js';

/** Bytes read at a time from a catalog file. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * An open file's bytes in chunks read into two buffers that take turns (each chunk is valid until the
 * next is asked for); closes the file at the end or when the consumer stops. The read of the next
 * chunk is under way while the consumer works on this one: read one at a time, the main thread waited
 * for every chunk (a million-card price file, 2.76 GB, split and hashed line by line in 4.2-4.5 s from
 * the page cache one 256 KB chunk at a time, 2.6-2.8 s with the next chunk read ahead:
 * scripts/bench-read-lines.mjs, docs/benchmarks.md). A read stream
 * allocates a buffer per chunk instead: 3 GB of them for a million-card catalog, and every buffer
 * counts towards V8's external memory, each 64 MB of which starts a marking of the whole heap (the
 * loaded catalog, while the price file is read).
 */
export async function* fileChunks(handle: FileHandle, chunkBytes = CHUNK_BYTES): AsyncGenerator<Buffer> {
  const buffers = [Buffer.allocUnsafeSlow(chunkBytes), Buffer.allocUnsafeSlow(chunkBytes)];
  let turn = 0;
  let next: Promise<{ bytesRead: number }> | null = handle.read(buffers[turn], 0, chunkBytes, null);
  try {
    for (;;) {
      const { bytesRead } = await next;
      next = null;
      if (bytesRead === 0) return;
      const chunk = buffers[turn].subarray(0, bytesRead);
      // The other buffer held the chunk before this one, which the consumer gave up by asking for this one.
      turn ^= 1;
      next = handle.read(buffers[turn], 0, chunkBytes, null);
      yield chunk;
    }
  } finally {
    // A read still under way when the consumer stops (or a read failed) is waited for before the file is closed.
    if (next !== null) await next.catch(() => undefined);
    await handle.close();
  }
}

/** A line this long is a corrupt file (a missing newline), not a record: report it, do not buffer it. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * One line of an NDJSON file as bytes: without its `\n` / `\r\n` and without a leading UTF-8
 * byte-order mark, so decoding `bytes` gives the line's text. `bytes` may be a view of a buffer that
 * is filled again once the next line is asked for: copy or decode it before that. A line over the cap
 * has no bytes, only its `problem`. Blank lines are handed out too (decodeLine tells them).
 */
export interface ByteLine {
  lineNo: number;
  bytes: Buffer;
  problem?: string;
  /** The SHA-1 of `bytes`, base64url, when whoever split the lines took it already (hashed-lines.ts). */
  key?: string;
}

const BOM = [0xef, 0xbb, 0xbf];

/**
 * Splits a byte stream into lines of bytes (ByteLine), handed out in batches: the lines that end in
 * one chunk, each batch valid until the next is asked for (its lines are views of the chunk, but the
 * first, which may have begun in the chunk before). Holds at most one chunk and one line besides. A
 * batch rather than a line at a time: each step of an async generator is a few promise resolutions,
 * and a million-card price file is a million lines (docs/benchmarks.md).
 */
export async function* splitLineBytes(chunks: AsyncIterable<Uint8Array>, maxLineBytes: number = MAX_LINE_BYTES): AsyncGenerator<ByteLine[]> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let overlong = false;
  let lineNo = 0;

  const finishLine = (tail: Buffer): ByteLine => {
    lineNo += 1;
    if (overlong) {
      overlong = false;
      return { lineNo, bytes: EMPTY, problem: `line is longer than ${maxLineBytes} bytes` };
    }
    let bytes = pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
    pending = [];
    pendingBytes = 0;
    if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
    // Some exporters write a byte-order mark at the start of line 1; the text decoder dropped it
    // from any line (each decode call was a fresh stream), so it is dropped here the same way.
    if (bytes.length >= 3 && bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2]) bytes = bytes.subarray(3);
    return { lineNo, bytes };
  };

  for await (const chunk of chunks) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const batch: ByteLine[] = [];
    let start = 0;
    for (let nl = buf.indexOf(NEWLINE, start); nl !== -1; nl = buf.indexOf(NEWLINE, start)) {
      batch.push(finishLine(buf.subarray(start, nl)));
      start = nl + 1;
    }
    if (start < buf.length && !overlong) {
      // A copy: the chunk's buffer may be filled again with the next chunk.
      pending.push(Buffer.from(buf.subarray(start)));
      pendingBytes += buf.length - start;
      if (pendingBytes > maxLineBytes) {
        overlong = true;
        pending = [];
        pendingBytes = 0;
      }
    }
    if (batch.length > 0) yield batch;
  }
  if (pendingBytes > 0 || overlong) yield [finishLine(Buffer.alloc(0))];
}

const EMPTY = Buffer.alloc(0);

// fatal: a line that is not UTF-8 is rejected by name instead of being read with U+FFFD in it.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The text of a line of bytes: null for a blank (whitespace only) line, which is skipped but counted;
 * `{ problem }` when the bytes are not UTF-8.
 */
export function decodeLine(bytes: Buffer): { text: string } | { problem: string } | null {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { problem: 'line is not valid UTF-8' };
  }
  // Most lines are records: a line that starts with `{` is not blank, and trim would copy it.
  if (bytes.length > 0 && bytes[0] === 0x7b) return { text };
  return text.trim() === '' ? null : { text };
}

/** The lines of a byte stream as text (SourceLine), blank lines skipped but counted. */
export async function* splitLines(chunks: AsyncIterable<Uint8Array>, maxLineBytes: number = MAX_LINE_BYTES): AsyncGenerator<SourceLine> {
  for await (const batch of splitLineBytes(chunks, maxLineBytes)) {
    for (const line of batch) {
      if (line.problem !== undefined) {
        yield { lineNo: line.lineNo, text: '', problem: line.problem };
        continue;
      }
      const decoded = decodeLine(line.bytes);
      if (decoded === null) continue;
      yield 'problem' in decoded ? { lineNo: line.lineNo, text: '', problem: decoded.problem } : { lineNo: line.lineNo, text: decoded.text };
    }
  }
}
