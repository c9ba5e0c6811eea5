/**
 * Field selection on the list routes (issue 20): `fields=a,b,c` and `view=ids`, through the real app
 * over a real compiled catalog and real SQLite.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsSnapshotSource } from '../../../snapshots/store/fs.js';
import { itemFields } from '../../../proxy/serve-object/selection.js';
import { compiledCatalog, type CompiledCatalog } from '../../helpers/compiled-catalog.js';
import { createTestApp, type TestApp } from '../../helpers/server-app.js';

let cat: CompiledCatalog;
let t: TestApp;
type Page = { kind: string; data: unknown[]; page: { total: number; page: number; limit: number }; warnings: string[] };

beforeAll(async () => {
  cat = await compiledCatalog(80);
  t = await createTestApp({ snapshots: createFsSnapshotSource(cat.root) });
}, 60_000);
afterAll(() => t?.close());

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await t.request(path, { headers: { ...t.headers, ...headers } });
  const text = res.headers.get('content-encoding') === 'gzip' ? gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8') : await res.text();
  return { res, body: res.status === 304 ? null : (JSON.parse(text) as Page & { error?: string; message?: string }) };
};

function lists(): string[] {
  const set = cat.sets[0];
  const word = (JSON.parse(readFileSync(join(cat.source, 'cards.ndjson'), 'utf8').split('\n')[0]) as { name: string }).name.split(' ')[0];
  return [
    `/v1/sets/${set.game}/${set.code}?limit=5&page=2`, `/v1/sets/${set.game}/${set.code}`, `/v1/figures/series/${cat.seriesIds[0]}`,
    '/v1/trending?limit=4', '/v1/recent', '/v1/discover/sparklines?limit=3', '/v1/discover/binders?limit=2', `/v1/search?q=${encodeURIComponent(word)}&limit=4`,
  ];
}
const withQuery = (path: string, q: string) => `${path}${path.includes('?') ? '&' : '?'}${q}`;

describe('fields=a,b,c on the list routes', () => {
  it('keeps only those fields of each item; the envelope, page block and warnings stay; the ETag is its own and 304 works', async () => {
    for (const path of lists()) {
      const full = await get(path);
      expect(full.res.status, path).toBe(200);
      expect(full.body!.data.length, path).toBeGreaterThan(0);
      const picked = await get(withQuery(path, 'fields=name,id'));
      expect(picked.res.status, path).toBe(200);
      const { data, ...rest } = picked.body!;
      const { data: fullData, ...fullRest } = full.body!;
      expect(rest, path).toEqual(fullRest);
      expect(data, path).toEqual(fullData.map((i) => {
        const { id, name } = i as { id: string; name: string };
        return { id, name };
      }));
      const etag = picked.res.headers.get('etag')!;
      expect(etag, path).not.toBe(full.res.headers.get('etag'));
      // The same selection in another order is the same answer.
      const again = await get(withQuery(path, 'fields=id,name,id'));
      expect(again.res.headers.get('etag'), path).toBe(etag);
      expect((await get(withQuery(path, 'fields=id,name'), { 'If-None-Match': etag })).res.status, path).toBe(304);
      const gz = await get(withQuery(path, 'fields=id,name'), { 'Accept-Encoding': 'gzip' });
      expect(gz.res.headers.get('content-encoding'), path).toBe('gzip');
      expect((await get(withQuery(path, 'fields=id,name'), { 'Accept-Encoding': 'gzip', 'If-None-Match': gz.res.headers.get('etag')! })).res.status, path).toBe(304);
    }
  });

  it('an unknown field is 400 naming it and listing the valid ones; a malformed list is 400', async () => {
    const bad = await get('/v1/trending?fields=id,colour');
    expect(bad.res.status).toBe(400);
    expect(bad.body!.error).toBe('invalid_parameter');
    expect(bad.body!.message).toBe(`fields names colour, not a field of this list's items; valid: ${itemFields('TrendingItem').join(', ')}`);
    expect(bad.body!.message).toContain('velocity24h');
    expect((await get('/v1/discover/activity?fields=id')).body!.message).toBe("fields names id, not a field of this list's items; valid: count, date, type");
    expect((await get('/v1/recent?fields=id,,name')).res.status).toBe(400);
    expect((await get('/v1/recent?fields=')).res.status).toBe(400);
  });

  it('the showcase binders and document routes do not take it', async () => {
    const shown = cat.users.find((u) => u.showcase && u.handle)!.handle!;
    expect((await get(`/v1/u/${shown}/binders?fields=id`)).body!.message).toBe('unknown parameter fields');
    expect((await get('/v1/catalog/summary?fields=id')).body!.message).toBe('unknown parameter fields');
  });
});

describe('view=ids on the list routes', () => {
  it('sends each item as its id alone, paging kept, with its own ETag', async () => {
    for (const path of lists()) {
      const full = await get(path);
      const ids = await get(withQuery(path, 'view=ids'));
      expect(ids.res.status, path).toBe(200);
      expect(ids.body!.data, path).toEqual(full.body!.data.map((i) => ({ id: (i as { id: string }).id })));
      expect(ids.body!.page, path).toEqual(full.body!.page);
      expect((await get(withQuery(path, 'view=ids'), { 'If-None-Match': ids.res.headers.get('etag')! })).res.status, path).toBe(304);
    }
  });

  it('is 400 for a list whose items have no id or for another value; with fields, the ids and a warning', async () => {
    expect((await get('/v1/discover/activity?view=ids')).body!.message).toMatch(/^view must be full on this list: its items have no id/);
    expect((await get('/v1/discover/sets?view=ids')).res.status).toBe(400);
    const both = await get('/v1/recent?view=ids&fields=id,name');
    expect(both.res.status).toBe(200);
    expect(both.body!.warnings).toEqual(['fields is not used with view=ids']);
    expect(Object.keys(both.body!.data[0] as object)).toEqual(['id']);
    expect((await get('/v1/recent?view=everything')).body!.message).toBe('view must be one of full, ids');
  });
});
