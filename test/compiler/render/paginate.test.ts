import { describe, expect, it } from 'vitest';
import { paginate } from '../../../compiler/render/paginate.js';

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ i }));

describe('paginate', () => {
  it('when the list is empty then there is one page with data [] and total 0', () => {
    const pages = paginate('set', [], '2026-11-20');
    expect(pages).toHaveLength(1);
    expect(pages[0].data).toEqual([]);
    expect(pages[0].page).toEqual({ page: 1, limit: 100, total: 0, totalPages: 1, hasMore: false });
  });

  it.each([
    [1, [1]],
    [100, [100]],
    [101, [100, 1]],
    [250, [100, 100, 50]],
  ])('when the list has %i items then pages hold %j items', (n, sizes) => {
    const pages = paginate('trending', items(n), null);
    expect(pages.map((p) => p.data.length)).toEqual(sizes);
    pages.forEach((p, i) => {
      expect(p.page).toEqual({ page: i + 1, limit: 100, total: n, totalPages: sizes.length, hasMore: i + 1 < sizes.length });
      expect(p.kind).toBe('trending');
      expect(p.asOf).toBeNull();
    });
    // Pages concatenate back to the list, in order.
    expect(pages.flatMap((p) => p.data)).toEqual(items(n));
  });

  it('when asOf is a date then every page carries it as a midnight timestamp', () => {
    const pages = paginate('artist', items(150), '2026-11-20');
    expect(pages.map((p) => p.asOf)).toEqual(['2026-11-20T00:00:00.000Z', '2026-11-20T00:00:00.000Z']);
    expect(pages[0]).toMatchObject({ apiVersion: 'v1', schemaVersion: 1, warnings: [] });
  });
});
