import { gunzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogError } from '../../snapshots/errors.js';
import { createSearchIndexCache } from '../../proxy/search/index-cache.js';
import { SNAPSHOT_ID, createFixture, q, testApp, type Fixture } from './fixture.js';

let fx: Fixture;
beforeAll(() => {
  fx = createFixture();
});
afterAll(async () => {
  await fx.cleanup();
});

describe('GET /v1/search HTTP semantics', () => {
  it('sends cache headers, a strong ETag that hashes the body, and the snapshot id', async () => {
    const res = await fx.app.request(`/v1/search?${q('bolt')}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, s-maxage=300, stale-while-revalidate=3600');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(res.headers.get('x-snapshot-id')).toBe(SNAPSHOT_ID);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('etag')).toBe(`"${createHash('sha256').update(text).digest('hex')}"`);
    expect(fx.last).toEqual({ routePattern: '/v1/search', snapshotId: SNAPSHOT_ID });
  });

  it('gives the same ETag for the same answer and another for another answer', async () => {
    const a = (await fx.app.request(`/v1/search?${q('bolt')}`)).headers.get('etag');
    const b = (await fx.app.request(`/v1/search?${q('bolt')}`)).headers.get('etag');
    const c = (await fx.app.request(`/v1/search?${q('bolt')}&limit=2`)).headers.get('etag');
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });

  it('when If-None-Match holds the ETag then 304 without a body', async () => {
    const etag = (await fx.app.request(`/v1/search?${q('char')}`)).headers.get('etag') as string;
    for (const header of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const res = await fx.app.request(`/v1/search?${q('char')}`, { headers: { 'If-None-Match': header } });
      expect(res.status, header).toBe(304);
      expect(await res.text()).toBe('');
      expect(res.headers.get('etag')).toBe(etag);
      expect(res.headers.get('cache-control')).toBe('public, s-maxage=300, stale-while-revalidate=3600');
    }
    const miss = await fx.app.request(`/v1/search?${q('char')}`, { headers: { 'If-None-Match': '"other"' } });
    expect(miss.status).toBe(200);
  });

  it('gzips when the client accepts it, and not when it refuses', async () => {
    // Any page is gzipped for a client that accepts it (respond-negotiated.ts); refusing gzip gets it plain.
    const page = `${q('ancient')}&limit=30`;
    const plain = await (await fx.app.request(`/v1/search?${page}`)).text();
    const res = await fx.app.request(`/v1/search?${page}`, { headers: { 'Accept-Encoding': 'br, gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8')).toBe(plain);
    const refused = await fx.app.request(`/v1/search?${page}`, { headers: { 'Accept-Encoding': 'gzip;q=0, identity' } });
    expect(refused.headers.get('content-encoding')).toBeNull();
    expect(await refused.text()).toBe(plain);
  });

  it('when no snapshot is published then 503 unavailable', async () => {
    const { app } = testApp(async () => {
      throw new CatalogError('unavailable', 'no snapshot has been published yet');
    }, createSearchIndexCache());
    const res = await app.request(`/v1/search?${q('bolt')}`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: 'unavailable', requestId: 'req-test' });
  });

  it('validates q before it needs a snapshot', async () => {
    const { app } = testApp(async () => {
      throw new CatalogError('unavailable', 'no snapshot has been published yet');
    }, createSearchIndexCache());
    expect((await app.request('/v1/search?q=')).status).toBe(400);
  });
});
