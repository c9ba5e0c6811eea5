import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsSnapshotSource } from '../../../snapshots/store/fs.js';
import { createTestApp, type TestApp } from '../../helpers/server-app.js';
import { FIXTURE_SET, FIXTURE_TRENDING_ALL, setItemId, trendingItemId, writeFixtureSnapshot } from '../../helpers/snapshot-fixture.js';

let root: string;
let t: TestApp;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'catalog-lists-'));
  await writeFixtureSnapshot(root);
  t = await createTestApp({ snapshots: createFsSnapshotSource(root) });
});
afterAll(() => {
  t.close();
  rmSync(root, { recursive: true, force: true });
});

const get = (path: string) => t.request(path, { headers: t.headers });
const body = async (path: string) => {
  const res = await get(path);
  return { res, doc: JSON.parse(await res.text()) };
};
const ids = (doc: { data: { id: string }[] }) => doc.data.map((item) => item.id);

describe('list slicing', () => {
  it('limit 7 page 3 returns items 15-21 with page totals and Link', async () => {
    const { res, doc } = await body('/v1/sets/mtg/lea?limit=7&page=3');
    expect(res.status).toBe(200);
    expect(ids(doc)).toEqual([14, 15, 16, 17, 18, 19, 20].map(setItemId));
    expect(doc.page).toEqual({ page: 3, limit: 7, total: FIXTURE_SET.items, totalPages: 36, hasMore: true });
    expect(doc.warnings).toEqual([]);
    expect(res.headers.get('link')).toBe('</v1/sets/mtg/lea?limit=7&page=4>; rel="next", </v1/sets/mtg/lea?limit=7&page=2>; rel="prev"');
  });

  it('a window across a stored-page boundary joins the two stored pages', async () => {
    // limit 30 page 4 → items 90..119: the end of stored page 1 and the start of stored page 2.
    const { doc } = await body('/v1/sets/mtg/lea?limit=30&page=4');
    expect(ids(doc)).toEqual(Array.from({ length: 30 }, (_, i) => setItemId(90 + i)));
    expect(doc.page).toMatchObject({ page: 4, limit: 30, total: 250, totalPages: 9, hasMore: true });
  });

  it('limit 7 page 15 straddles stored pages 1 and 2 (items 99-105)', async () => {
    const { doc } = await body('/v1/sets/mtg/lea?limit=7&page=15');
    expect(ids(doc)).toEqual([98, 99, 100, 101, 102, 103, 104].map(setItemId));
  });

  it('the last partial page holds the remainder and has no next link', async () => {
    const { res, doc } = await body('/v1/sets/mtg/lea?page=3');
    expect(ids(doc)).toEqual(Array.from({ length: 50 }, (_, i) => setItemId(200 + i)));
    expect(doc.page).toEqual({ page: 3, limit: 100, total: 250, totalPages: 3, hasMore: false });
    expect(res.headers.get('link')).toBe('</v1/sets/mtg/lea?page=2&limit=100>; rel="prev"');
  });

  it('trending defaults to 20 items of the all-games feed', async () => {
    const { res, doc } = await body('/v1/trending');
    expect(ids(doc)).toEqual(Array.from({ length: 20 }, (_, i) => trendingItemId(i)));
    expect(doc.page).toEqual({ page: 1, limit: 20, total: FIXTURE_TRENDING_ALL, totalPages: 7, hasMore: true });
    expect(res.headers.get('link')).toBe('</v1/trending?page=2&limit=20>; rel="next"');
  });

  it('limit 500 is capped at 100 with a warning', async () => {
    const { res, doc } = await body('/v1/trending?limit=500&page=2');
    expect(res.status).toBe(200);
    expect(doc.warnings).toEqual(['limit capped at 100']);
    expect(ids(doc)).toEqual(Array.from({ length: 30 }, (_, i) => trendingItemId(100 + i)));
    expect(doc.page).toMatchObject({ page: 2, limit: 100, total: 130, hasMore: false });
  });

  it('a page past the end is 200 with data []', async () => {
    for (const path of ['/v1/sets/mtg/lea?page=4', '/v1/sets/mtg/lea?page=99&limit=50', '/v1/discover/sets?page=2']) {
      const { res, doc } = await body(path);
      expect(res.status, path).toBe(200);
      expect(doc.data, path).toEqual([]);
      expect(doc.page.hasMore, path).toBe(false);
    }
    const { doc } = await body('/v1/sets/mtg/lea?page=4');
    expect(doc.page).toEqual({ page: 4, limit: 100, total: 250, totalPages: 3, hasMore: false });
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=-5', 'limit'],
    ['page=0', 'page'],
    ['page=1.5', 'page'],
    ['page=1&page=2', 'page'],
  ])('?%s → 400 naming %s', async (query, parameter) => {
    const { res, doc } = await body(`/v1/sets/mtg/lea?${query}`);
    expect(res.status).toBe(400);
    expect(doc.error).toBe('invalid_parameter');
    expect(doc.message).toContain(parameter);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('an unknown list is 404 whatever the page', async () => {
    for (const path of ['/v1/sets/mtg/zzz', '/v1/sets/mtg/zzz?page=3&limit=7', '/v1/artists/nobody', '/v1/figures/series/none', '/v1/u/bob/binders']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(JSON.parse(await res.text()).error).toBe('not_found');
    }
  });
});
