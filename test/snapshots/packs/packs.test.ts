import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogError } from '../../../snapshots/errors.js';
import { createPackReader } from '../../../snapshots/packs/pack-reader.js';
import { createPackWriter, type PackedObject } from '../../../snapshots/packs/pack-writer.js';
import { tempDir } from '../../helpers/auth-fixtures.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function dir(): string {
  const t = tempDir('catalog-packs-');
  cleanups.push(t.cleanup);
  return t.dir;
}

const objects = (n: number, seed = 1) => Array.from({ length: n }, (_, i) => Buffer.concat([Buffer.from(`${seed}:${i}:`), randomBytes(100 + ((i * 7919) % 3000))]));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function pack(d: string, items: Buffer[], targetBytes: number) {
  const writer = createPackWriter({ dir: d, targetBytes, bufferBytes: 4096 });
  const at: PackedObject[] = items.map((b) => writer.append(b));
  return { at, sealed: writer.finish() };
}

describe('pack writer and reader', () => {
  it('when objects are appended past the target size then several packs are sealed, each named by the SHA-256 of its bytes', () => {
    const d = dir();
    const items = objects(400);
    const { at, sealed } = pack(d, items, 64 * 1024);
    expect(sealed.length).toBeGreaterThan(5);
    for (const p of sealed) {
      const bytes = readFileSync(p.file);
      expect(p.file).toBe(join(d, `${sha(bytes)}.pack`));
      expect(p.sha256).toBe(sha(bytes));
      expect(p.size).toBe(bytes.length);
      expect(p.size).toBeLessThanOrEqual(64 * 1024);
    }
    expect(readdirSync(d).filter((f) => f.startsWith('.tmp-'))).toEqual([]);
    const bySeq = new Map(sealed.map((p) => [p.seq, p.sha256]));
    const reader = createPackReader({ dir: d, maxOpen: 2 });
    items.forEach((b, i) => expect(reader.read(bySeq.get(at[i].pack)!, at[i].offset, at[i].length).equals(b), `object ${i}`).toBe(true));
    reader.close();
  });

  it('when the caller re-uses its buffer after each append (as the compile does with its arenas) then the pack still holds every object as given', () => {
    const d = dir();
    const items = objects(60);
    const writer = createPackWriter({ dir: d, targetBytes: 1 << 20, bufferBytes: 2048 });
    const scratch = Buffer.alloc(4096);
    const at = items.map((b) => {
      const view = scratch.subarray(0, b.copy(scratch));
      const where = writer.append(view);
      scratch.fill(0xee);
      return where;
    });
    const [sealed] = writer.finish();
    // Objects larger than the write buffer (up to 3,100 bytes against 2,048) are written straight through.
    expect(items.some((b) => b.length > 2048)).toBe(true);
    expect(readFileSync(sealed.file).equals(Buffer.concat(items))).toBe(true);
    const reader = createPackReader({ dir: d, maxOpen: 1 });
    items.forEach((b, i) => expect(reader.read(sealed.sha256, at[i].offset, at[i].length).equals(b), `object ${i}`).toBe(true));
    reader.close();
  });

  it('when the same objects are packed twice then the packs have the same names (content-addressed, stored once)', () => {
    const d = dir();
    const items = objects(50);
    const first = pack(d, items, 32 * 1024).sealed.map((p) => p.sha256);
    const second = pack(d, items, 32 * 1024).sealed.map((p) => p.sha256);
    expect(second).toEqual(first);
    expect(readdirSync(d).sort()).toEqual([...new Set(first)].map((s) => `${s}.pack`).sort());
  });

  it('when a write is aborted then no temporary pack is left and no pack is published', () => {
    const d = dir();
    const writer = createPackWriter({ dir: d, bufferBytes: 16 });
    writer.append(Buffer.from('partial object'));
    writer.abort();
    expect(readdirSync(d)).toEqual([]);
  });

  it('when a pack is missing, truncated or named by something other than a hash then the read fails as corrupt_object', () => {
    const d = dir();
    const { at, sealed } = pack(d, objects(3), 1 << 20);
    const reader = createPackReader({ dir: d });
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return (err as CatalogError).code;
      }
      return 'no error';
    };
    expect(code(() => reader.read('0'.repeat(64), 0, 10))).toBe('corrupt_object');
    expect(code(() => reader.read('../../etc/passwd', 0, 10))).toBe('corrupt_object');
    reader.close();
    truncateSync(sealed[0].file, at[2].offset);
    const again = createPackReader({ dir: d });
    expect(again.read(sealed[0].sha256, at[0].offset, at[0].length).length).toBe(at[0].length);
    expect(code(() => again.read(sealed[0].sha256, at[2].offset, at[2].length))).toBe('corrupt_object');
    again.close();
  });

  it('when options are not positive integers then the writer and reader refuse them by name', () => {
    expect(() => createPackWriter({ dir: dir(), targetBytes: 0 })).toThrow(/targetBytes/);
    expect(() => createPackReader({ dir: dir(), maxOpen: 0 })).toThrow(/maxOpen/);
  });
});
