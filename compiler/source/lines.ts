/**
 * Splits a byte stream into NDJSON lines without holding more than one line (plus one chunk) in
 * memory. Lines end with `\n` or `\r\n`; the last line may lack its newline; blank (whitespace
 * only) lines are skipped but counted, so line numbers match what an editor shows.
 *
 * @example
 *   for await (const line of splitLines(fs.createReadStream('cards.ndjson'))) console.log(line.lineNo, line.text);
 */
import type { SourceLine } from './catalog-source.js';

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
      pending.push(buf.subarray(start));
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
