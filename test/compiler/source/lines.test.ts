import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileChunks, splitLines } from '../../../compiler/source/lines.js';

async function split(chunks: (string | Buffer)[], maxLineBytes?: number) {
  async function* source() {
    for (const chunk of chunks) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
  }
  const out = [];
  for await (const line of splitLines(source(), maxLineBytes)) out.push(line);
  return out;
}

describe('fileChunks', () => {
  it('when the next chunk is read ahead then the chunk handed out stays intact until the next is asked for, and an early stop closes the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-chunks-'));
    try {
      const file = join(dir, 'prices.ndjson');
      const bytes = Buffer.from(Array.from({ length: 64 }, (_, i) => `line ${i}`).join('\n'));
      writeFileSync(file, bytes);
      const handle = await open(file, 'r');
      const seen: Buffer[] = [];
      for await (const chunk of fileChunks(handle, 5)) {
        // Time for the read under way to land: it must not be in this chunk's buffer.
        await new Promise((resolve) => setTimeout(resolve, 2));
        expect(chunk.equals(bytes.subarray(seen.length * 5, seen.length * 5 + 5))).toBe(true);
        seen.push(Buffer.from(chunk));
      }
      expect(Buffer.concat(seen).equals(bytes)).toBe(true);

      const early = await open(file, 'r');
      for await (const chunk of fileChunks(early, 5)) {
        expect(chunk.length).toBe(5);
        break;
      }
      // Closed by the generator once the read it had started has landed.
      await expect(early.stat()).rejects.toThrow(/closed/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('splitLines', () => {
  it('when every chunk is the same buffer filled again (fileChunks) then lines that cross chunks are whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-lines-'));
    try {
      const file = join(dir, 'prices.ndjson');
      const lines = Array.from({ length: 200 }, (_, i) => JSON.stringify({ id: `card-${i}`, name: `Pokémon ★ ${'x'.repeat(i % 37)}` }));
      writeFileSync(file, `${lines.join('\n')}\n`);
      // 7-byte chunks: almost every line crosses several, and the buffer is overwritten each time.
      const out = [];
      for await (const line of splitLines(fileChunks(await open(file, 'r'), 7))) out.push(line.text);
      expect(out).toEqual(lines);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when lines end with LF, CRLF or nothing then each line is handed out without its ending', async () => {
    expect(await split(['a\r\nb\nc'])).toEqual([
      { lineNo: 1, text: 'a' },
      { lineNo: 2, text: 'b' },
      { lineNo: 3, text: 'c' },
    ]);
  });

  it('when there are blank and whitespace-only lines then they are skipped but counted', async () => {
    expect(await split(['\n  \n\t\r\nx\n\n'])).toEqual([{ lineNo: 4, text: 'x' }]);
  });

  it('when a line and a multi-byte character are split across chunks then the text is whole', async () => {
    const bytes = Buffer.from('{"name":"Pokémon ★"}\r\nnext\n');
    const chunks = Array.from(bytes, (b) => Buffer.from([b]));
    expect(await split(chunks)).toEqual([
      { lineNo: 1, text: '{"name":"Pokémon ★"}' },
      { lineNo: 2, text: 'next' },
    ]);
  });

  it('when the file starts with a byte-order mark then it is dropped', async () => {
    expect(await split([Buffer.from([0xef, 0xbb, 0xbf]), '{}\n'])).toEqual([{ lineNo: 1, text: '{}' }]);
  });

  it('when a line is not UTF-8 then it carries a problem and the next lines are unaffected', async () => {
    expect(await split([Buffer.from([0x61, 0xff, 0x0a]), 'b\n'])).toEqual([
      { lineNo: 1, text: '', problem: 'line is not valid UTF-8' },
      { lineNo: 2, text: 'b' },
    ]);
  });

  it('when a line is longer than the cap then it is reported, not buffered, and reading goes on', async () => {
    expect(await split(['ok\n', 'x'.repeat(30), 'y'.repeat(30), '\nafter\n', 'z'.repeat(70)], 50)).toEqual([
      { lineNo: 1, text: 'ok' },
      { lineNo: 2, text: '', problem: 'line is longer than 50 bytes' },
      { lineNo: 3, text: 'after' },
      { lineNo: 4, text: '', problem: 'line is longer than 50 bytes' },
    ]);
  });

  it('when the input is empty then nothing is handed out', async () => {
    expect(await split([])).toEqual([]);
    expect(await split([''])).toEqual([]);
  });
});
