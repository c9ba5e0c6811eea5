/** GET /openapi.json: outside /v1, no credential, cacheable, never counted or audited. */
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../proxy/openapi/document.js';
import { auditRows, authHarness, bearer, type AuthHarness } from '../helpers/auth-fixtures.js';

let h: AuthHarness;
afterEach(() => h?.close());

describe('GET /openapi.json', () => {
  it('when called without any credential, then 200 with the document the code builds, cacheable', async () => {
    h = authHarness();
    const res = await h.app.request('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, s-maxage=300, stale-while-revalidate=3600');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{64}-identity"$/);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.json()).toEqual(buildOpenApiDocument());
  });

  it('when gzip is accepted, then the same document gzipped under its own ETag, and If-None-Match gives 304', async () => {
    h = authHarness();
    const zipped = await h.app.request('/openapi.json', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    const etag = zipped.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(JSON.parse(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString('utf8')).openapi).toBe('3.1.0');
    const again = await h.app.request('/openapi.json', { headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
  });

  it('when an API key calls it, then the request is not rate-limited and writes no audit row', async () => {
    h = authHarness();
    const minted = h.keys.mint({ tenant: 'acme', tier: 'free' });
    const res = await h.app.request('/openapi.json', { headers: bearer(minted.key) });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit')).toBeNull();
    expect(auditRows(h.state)).toEqual([]);
  });

  it('when the method is not GET or HEAD, then 405 with Allow', async () => {
    h = authHarness();
    const res = await h.app.request('/openapi.json', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect((await res.json()).error).toBe('method_not_allowed');
  });
});
