/**
 * A bulk job's object digests as one byte array (compiler/bulk/digests.ts): appended from hex, read
 * back as hex, compared in place and reordered.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createDigestList, digestCount, digestHex, reorderDigests, sameDigest } from '../../../compiler/bulk/digests.js';

const sha = (n: number) => createHash('sha256').update(String(n)).digest('hex');

describe('bulk job digests', () => {
  it('when more digests are added than the first allocation holds then each reads back as the hex it came from', () => {
    const list = createDigestList();
    const hexes = Array.from({ length: 3_000 }, (_, n) => sha(n));
    for (const h of hexes) list.add(h);
    const digests = list.finish();
    expect(digestCount(digests)).toBe(hexes.length);
    expect(digests.byteLength).toBe(hexes.length * 32);
    expect(Array.from({ length: hexes.length }, (_, i) => digestHex(digests, i))).toEqual(hexes);
  });

  it('when digests are compared or reordered then positions follow the order given', () => {
    const a = createDigestList();
    const b = createDigestList();
    for (const n of [1, 2, 3]) a.add(sha(n));
    for (const n of [3, 1]) b.add(sha(n));
    const x = a.finish();
    const y = b.finish();
    expect(sameDigest(x, 0, y, 1)).toBe(true);
    expect(sameDigest(x, 2, y, 0)).toBe(true);
    expect(sameDigest(x, 1, y, 0)).toBe(false);
    const r = reorderDigests(x, [2, 0, 1]);
    expect([0, 1, 2].map((i) => digestHex(r, i))).toEqual([sha(3), sha(1), sha(2)]);
  });

  it('when a value is not a SHA-256 in hex then adding it fails', () => {
    const list = createDigestList();
    expect(() => list.add('abc')).toThrow(/not a SHA-256/);
    expect(() => list.add('zz'.repeat(32))).toThrow(/not a SHA-256/);
  });
});
