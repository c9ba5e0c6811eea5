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
const CHUNK_BYTES = 256 * 1024;

/**
 * An open file's bytes in chunks read into one buffer, re-used for every chunk (each is valid until
 * the next is asked for); closes the file at the end or when the consumer stops. A read stream
 * allocates a buffer per chunk instead: 3 GB of them for a million-card catalog, and every buffer
 * counts towards V8's external memory, each 64 MB of which starts a marking of the whole heap (the
 * loaded catalog, while the price file is read).
 */
export async function* fileChunks(handle: FileHandle, chunkBytes = CHUNK_BYTES): AsyncGenerator<Buffer> {
  const buf = Buffer.allocUnsafeSlow(chunkBytes);
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, chunkBytes, null);
      if (bytesRead === 0) return;
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/** A line this long is a corrupt file (a missing newline), not a record: report it, do not buffer it. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

const NEWLINE = 0x0a;
const CR = 0x0d;

export async function* splitLines(
  chunks: AsyncIterable<Uint8Array>,
  maxLineBytes: number = MAX_LINE_BYTES,
): AsyncGenerator<SourceLine> {
  // fatal: a line that is not UTF-8 is rejected by name instead of being read with U+FFFD in it.
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let overlong = false;
  let lineNo = 0;

  const finishLine = (tail: Buffer): SourceLine | null => {
    lineNo += 1;
    if (overlong) {
      overlong = false;
      return { lineNo, text: '', problem: `line is longer than ${maxLineBytes} bytes` };
    }
    let bytes = pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
    pending = [];
    pendingBytes = 0;
    if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
    let text: string;
    try {
      // ignoreBOM false drops a leading byte-order mark (each decode call is a fresh stream), which
      // some exporters write at the start of line 1.
      text = decoder.decode(bytes);
    } catch {
      return { lineNo, text: '', problem: 'line is not valid UTF-8' };
    }
    if (text.trim() === '') return null;
    return { lineNo, text };
  };

  for await (const chunk of chunks) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    for (let nl = buf.indexOf(NEWLINE, start); nl !== -1; nl = buf.indexOf(NEWLINE, start)) {
      const line = finishLine(buf.subarray(start, nl));
      if (line !== null) yield line;
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
  }
  if (pendingBytes > 0 || overlong) {
    const line = finishLine(Buffer.alloc(0));
    if (line !== null) yield line;
  }
}
