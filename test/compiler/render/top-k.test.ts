import { describe, expect, it } from 'vitest';
import { compareText, createTopK, topK } from '../../../compiler/render/order.js';

/** A small deterministic generator, so a failure names a reproducible case. */
function numbers(seed: number, n: number, range: number): number[] {
  let x = seed;
  return Array.from({ length: n }, () => (x = (x * 1103515245 + 12345) % 2 ** 31) % range);
}

describe('topK', () => {
  it('gives what a full sort and slice give, for sizes around k and many ties broken by a second key', () => {
    for (const [n, k] of [[0, 5], [3, 5], [5, 5], [6, 5], [1000, 1], [1000, 50], [1000, 999], [1000, 0]]) {
      const items = numbers(n + k, n, 20).map((v, i) => ({ v, id: `id-${(i * 7919) % 1009}-${i}` }));
      const compare = (a: { v: number; id: string }, b: { v: number; id: string }) => b.v - a.v || compareText(a.id, b.id);
      expect(topK(items, k, compare), `${n} items, k ${k}`).toEqual([...items].sort(compare).slice(0, k));
    }
  });

  it('leaves its input as it was', () => {
    const items = [5, 1, 4, 2, 3];
    expect(topK(items, 2, (a, b) => a - b)).toEqual([1, 2]);
    expect(items).toEqual([5, 1, 4, 2, 3]);
  });

  it('when items are offered one by one then it keeps the same k, whatever came before, and sorted() can be asked at any time', () => {
    const compare = (a: number, b: number) => a - b;
    const top = createTopK(3, compare);
    const seen: number[] = [];
    for (const v of numbers(7, 200, 1000)) {
      top.offer(v);
      seen.push(v);
      expect(top.sorted()).toEqual([...seen].sort(compare).slice(0, 3));
    }
    // sorted() hands out a copy: sorting it or offering more does not change what was handed out.
    const first = top.sorted();
    top.offer(-1);
    expect(first).not.toContain(-1);
    expect(top.sorted()[0]).toBe(-1);
  });
});
