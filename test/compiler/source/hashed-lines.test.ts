import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileChunks, MAX_LINE_BYTES, splitLineBytes, type ByteLine } from '../../../compiler/source/lines.js';
import { hashedLineBytes, LINE_SLOT_BYTES, openLineBatches, type LineBatchReader } from '../../../compiler/source/hashed-lines.js';
import { startReadAhead, type ReadAhead } from '../../../compiler/compile/read-ahead.js';
import { CatalogError } from '../../../snapshots/errors.js';

/** What a consumer keeps of a line: copies, since the bytes are views valid for one batch. */
interface Seen {
  lineNo: number;
  bytes: string;
  problem?: string;
  key?: string;
}

const seen = (line: ByteLine): Seen => ({
  lineNo: line.lineNo, bytes: line.bytes.toString('latin1'), ...(line.problem === undefined ? {} : { problem: line.problem }), ...(line.key === undefined ? {} : { key: line.key }),
});

/** The lines as the main thread splits them itself, each non-problem line with the key streamPrices would take. */
async function splitHere(file: string): Promise<Seen[]> {
  const out: Seen[] = [];
  for await (const batch of splitLineBytes(fileChunks(await open(file, 'r')))) {
    for (const line of batch) out.push(seen(line.problem === undefined ? { ...line, key: hash('sha1', line.bytes, 'base64url') } : line));
  }
  return out;
}

async function splitElsewhere(file: string, reader: LineBatchReader): Promise<Seen[]> {
  const out: Seen[] = [];
  for await (const batch of hashedLineBytes(file, reader)) for (const line of batch) out.push(seen(line));
  return out;
}

/** The thread's side run on this thread: the same calls, in order. */
function readerHere(): LineBatchReader {
  let batches: Awaited<ReturnType<typeof openLineBatches>> | null = null;
  return {
    open: async (path, slots) => {
      batches = await openLineBatches(path, slots);
    },
    next: (slot) => batches!.next(slot),
    close: async () => batches?.close(),
  };
}

describe('hashed line bytes', () => {
  let dir: string;
  let ahead: ReadAhead | null = null;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'catalog-hashed-lines-'));
  });
  afterEach(async () => {
    await ahead?.close();
    ahead = null;
    rmSync(dir, { recursive: true, force: true });
  });

  it('when a file is split and hashed on the read-ahead thread then every line, number, problem and key is what this thread makes of it', async () => {
    const file = join(dir, 'prices.ndjson');
    const lines: (string | Buffer)[] = ['\uFEFF{"id":"first"}', '', '   ', '{"id":"crlf"}\r'];
    // Many 1 MB chunks, so batches take turns in every slot; a line longer than a slot comes on its own.
    for (let i = 0; i < 40_000; i++) lines.push(`{"entity":"card","id":"c-${i}","usdCents":[${i},${i + 1}],"pad":"${'x'.repeat(i % 97)}"}`);
    // Lines that begin in one chunk and end in the next: one fits the room kept at the start of a
    // slot, the next does not; one longer than a slot spans several chunks.
    for (let i = 0; i < 12; i++) lines.push(`{"mid":"${'m'.repeat(i % 2 === 0 ? 200_000 : 300_000)}"}`);
    lines.push(`{"big":"${'y'.repeat(LINE_SLOT_BYTES + 10)}"}`);
    lines.push(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    lines.push('{"id":"last, no newline"}');
    writeFileSync(file, Buffer.concat(lines.map((l, i) => Buffer.concat([typeof l === 'string' ? Buffer.from(l) : l, Buffer.from(i < lines.length - 1 ? '\n' : '')]))));

    const expected = await splitHere(file);
    expect(expected.length).toBe(lines.length);
    ahead = startReadAhead('worker');
    const got = await splitElsewhere(file, ahead.lines);
    expect(got).toEqual(expected);
    // The same on this thread (inline mode).
    expect(await splitElsewhere(file, readerHere())).toEqual(expected);
  });

  it('when a batch is held while the thread fills the next ones then its bytes do not change until the next is asked for', async () => {
    const file = join(dir, 'prices.ndjson');
    writeFileSync(file, Array.from({ length: 60_000 }, (_, i) => `{"n":${i},"pad":"${'z'.repeat(40)}"}`).join('\n'));
    ahead = startReadAhead('worker');
    let next = 0;
    for await (const batch of hashedLineBytes(file, ahead.lines)) {
      const copies = batch.map((l) => Buffer.from(l.bytes));
      // Time for the batches asked for meanwhile to land in their slots.
      await new Promise((resolve) => setTimeout(resolve, 5));
      batch.forEach((l, i) => {
        expect(l.bytes.equals(copies[i])).toBe(true);
        expect(l.lineNo).toBe(++next);
        expect(JSON.parse(l.bytes.toString()).n).toBe(l.lineNo - 1);
      });
    }
    expect(next).toBe(60_000);
  });

  it('when the consumer stops early then the file is closed and the thread splits the next file', async () => {
    const a = join(dir, 'a.ndjson');
    const b = join(dir, 'b.ndjson');
    writeFileSync(a, Array.from({ length: 100_000 }, (_, i) => `{"a":${i}}`).join('\n'));
    writeFileSync(b, '{"b":1}\n{"b":2}\n');
    ahead = startReadAhead('worker');
    for await (const batch of hashedLineBytes(a, ahead.lines)) {
      expect(batch[0].lineNo).toBe(1);
      break;
    }
    expect(await splitElsewhere(b, ahead.lines)).toEqual(await splitHere(b));
  });

  it('when the file is missing then the CatalogError names it, as the folder source does', async () => {
    ahead = startReadAhead('worker');
    const missing = join(dir, 'prices.ndjson');
    const err = await splitElsewhere(missing, ahead.lines).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CatalogError);
    expect((err as CatalogError).code).toBe('invalid_source');
    expect((err as CatalogError).message).toContain(missing);
  });

  it('when a line is over the cap then it has its problem and no key', async () => {
    const file = join(dir, 'prices.ndjson');
    writeFileSync(file, `{"a":1}\n${'q'.repeat(MAX_LINE_BYTES + 2 ** 21)}\n{"a":2}\n`);
    const got = await splitElsewhere(file, readerHere());
    expect(got.map((l) => [l.lineNo, l.problem ?? null, l.key === undefined])).toEqual([
      [1, null, false],
      [2, `line is longer than ${MAX_LINE_BYTES} bytes`, true],
      [3, null, false],
    ]);
    expect(got).toEqual(await splitHere(file));
  });
});
