/**
 * The object pass of `catalog verify` on packed snapshots (verify-pack-objects.ts), fed real bytes in
 * chunks of every size from 1 byte to more than the pack: objects inside a chunk, across one or many
 * chunk boundaries, larger than a chunk, sharing bytes with another row, and past the pack's end.
 * At a million cards every chunk boundary cuts an object, so this is the common case, not an edge.
 */
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPackObjectCheck, type PackedRow } from '../../../snapshots/store/verify-pack-objects.js';

interface Row extends PackedRow {
  name: string;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest();

function run(pack: Buffer, rows: Row[], chunkBytes: number) {
  let i = 0;
  const ok: string[] = [];
  const bad: string[] = [];
  const unread: string[] = [];
  const check = createPackObjectCheck<Row>(
    () => rows[i++] ?? null,
    (row, mismatch) => (mismatch ? bad : ok).push(row.name),
    (row) => unread.push(row.name),
  );
  for (let offset = 0; offset < pack.length; offset += chunkBytes) check.chunk({ offset, bytes: pack.subarray(offset, offset + chunkBytes) });
  check.end();
  return { ok, bad, unread };
}

describe('createPackObjectCheck', () => {
  const pack = randomBytes(1000);
  const row = (name: string, offset: number, length: number, bytes = pack.subarray(offset, offset + length)): Row => ({ name, offset, length, sha256: sha(bytes) });
  // Sorted by offset, as the verify query gives them: a 1-byte object, neighbours, a large one, one
  // that shares the large one's bytes (same offset) and one nested inside it.
  const rows = [
    row('first', 0, 1),
    row('a', 1, 99),
    row('b', 100, 150),
    row('large', 250, 600),
    row('same-bytes', 250, 600),
    row('nested', 300, 20),
    row('last', 850, 150),
  ];

  for (const chunkBytes of [1, 7, 64, 100, 250, 599, 1000, 4096]) {
    it(`when chunks are ${chunkBytes} bytes then every object is checked once and found whole`, () => {
      const r = run(pack, rows, chunkBytes);
      expect(r.ok.sort()).toEqual(rows.map((x) => x.name).sort());
      expect(r.bad).toEqual([]);
      expect(r.unread).toEqual([]);
    });
  }

  it('when a byte of one object differs then only the objects holding that byte are reported, at any chunk size', () => {
    const damaged = Buffer.from(pack);
    damaged[305] ^= 1; // inside large, same-bytes and nested
    for (const chunkBytes of [3, 64, 1000]) {
      const r = run(damaged, rows, chunkBytes);
      expect(r.bad.sort()).toEqual(['large', 'nested', 'same-bytes']);
      expect(r.ok.sort()).toEqual(['a', 'b', 'first', 'last']);
    }
  });

  it('when the pack ends before an object does then that object is reported unread, not as checked', () => {
    const short = pack.subarray(0, 900);
    const r = run(short, rows, 64);
    expect(r.unread).toEqual(['last']);
    expect(r.bad).toEqual([]);
  });
});
