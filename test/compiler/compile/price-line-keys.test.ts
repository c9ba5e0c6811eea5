import { describe, expect, it } from 'vitest';
import { hash } from 'node:crypto';
import { createKeyIndex } from '../../../compiler/compile/price-line-keys.js';

const keyOf = (n: number) => hash('sha1', `line ${n}`, 'base64url');

describe('price line key index', () => {
  it('finds the place of every key added from bytes, and -1 for any other', () => {
    const n = 50_000;
    const keys = createKeyIndex(n);
    // Keys inside a larger buffer, as in a chunk: read in place at their offset.
    const bytes = Buffer.from(Array.from({ length: n }, (_, i) => `${keyOf(i)}.....`).join(''), 'latin1');
    for (let i = 0; i < n; i++) expect(keys.add(bytes, i * 32, i * 7)).toBe(true);
    expect(keys.size).toBe(n);
    for (let i = 0; i < n; i++) expect(keys.get(keyOf(i))).toBe(i * 7);
    for (let i = n; i < n + 1000; i++) expect(keys.get(keyOf(i))).toBe(-1);
    expect(keys.get('')).toBe(-1);
    expect(keys.get('not base64url! not base64url!')).toBe(-1);
  });

  it('refuses a key twice and a key that is not base64url', () => {
    const keys = createKeyIndex(4);
    const k = Buffer.from(keyOf(1), 'latin1');
    expect(keys.add(k, 0, 1)).toBe(true);
    expect(keys.add(k, 0, 2)).toBe(false);
    expect(keys.get(keyOf(1))).toBe(1);
    expect(keys.add(Buffer.from('!'.repeat(27), 'latin1'), 0, 3)).toBe(false);
    expect(keys.size).toBe(1);
  });

  it('tells keys apart that share their first 8 or their second 8 characters', () => {
    const keys = createKeyIndex(8);
    const base = keyOf(9);
    const a = `${base.slice(0, 8)}AAAAAAAA${base.slice(16)}`;
    const b = `${base.slice(0, 8)}BBBBBBBB${base.slice(16)}`;
    const c = `CCCCCCCC${base.slice(8)}`;
    expect(keys.add(Buffer.from(a, 'latin1'), 0, 10)).toBe(true);
    expect(keys.add(Buffer.from(b, 'latin1'), 0, 20)).toBe(true);
    expect(keys.add(Buffer.from(c, 'latin1'), 0, 30)).toBe(true);
    expect([keys.get(a), keys.get(b), keys.get(c), keys.get(base)]).toEqual([10, 20, 30, -1]);
  });

  it('throws past the capacity made for its count (a damaged count is not trusted further)', () => {
    const keys = createKeyIndex(2);
    let added = 0;
    expect(() => {
      for (let i = 0; i < 100; i++) if (keys.add(Buffer.from(keyOf(i), 'latin1'), 0, i)) added++;
    }).toThrow(/more than 8 keys/);
    expect(added).toBeGreaterThanOrEqual(2);
  });
});
