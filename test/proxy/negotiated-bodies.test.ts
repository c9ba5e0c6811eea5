/**
 * Issue 21, item 4: every JSON answer the proxy builds itself (audit, search, key administration,
 * snapshot metadata, errors) is gzipped when Accept-Encoding accepts it and it is at least
 * ERROR_GZIP_MIN_BYTES, always with `Vary: Accept-Encoding`; an ETag names the bytes sent, so gzip and
 * plain have their own, and each revalidates to 304. Through the real app over a compiled catalog.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_GZIP_MIN_BYTES } from '../../proxy/http/respond-negotiated.js';
import { bearer, internal } from '../helpers/auth-fixtures.js';
import type { CompiledCatalog } from '../helpers/compiled-catalog.js';
import { compiledWorld, type FixtureWorld } from '../helpers/fixture-app.js';

let w: FixtureWorld;
let catalog: CompiledCatalog;
let app: ReturnType<FixtureWorld['app']>;

beforeAll(async () => {
  ({ world: w, catalog, app } = await compiledWorld());
  // A full page of audit rows for acme's key (about 25 KB of JSON at limit=100).
  for (let i = 0; i < 100; i++) await app.request(`/v1/cards/${catalog.cardIds[i % catalog.cardIds.length]}`, { headers: bearer(w.acme.key) });
});
afterAll(() => w?.close());

const GZIP = { 'Accept-Encoding': 'gzip' };
const sha = (bytes: Buffer) => `"${createHash('sha256').update(bytes).digest('hex')}"`;

interface Answer { res: Response; raw: Buffer; text: string }

async function get(path: string, headers: Record<string, string>, init: RequestInit = {}): Promise<Answer> {
  const res = await app.request(path, { ...init, headers: { ...headers, ...(init.headers as Record<string, string> | undefined) } });
  const raw = Buffer.from(await res.arrayBuffer());
  const text = (res.headers.get('content-encoding') === 'gzip' && raw.length > 0 ? gunzipSync(raw) : raw).toString('utf8');
  return { res, raw, text };
}

/** The answer is gzip, says so, varies on Accept-Encoding, and its Content-Length is the gzip length. */
function expectGzip(a: Answer): void {
  expect(a.res.headers.get('content-encoding')).toBe('gzip');
  expect(a.res.headers.get('vary')).toBe('Accept-Encoding');
  expect(a.res.headers.get('content-length')).toBe(String(a.raw.length));
  expect(a.raw.length).toBeLessThan(Buffer.byteLength(a.text));
}

function expectPlain(a: Answer): void {
  expect(a.res.headers.get('content-encoding')).toBeNull();
  expect(a.res.headers.get('vary')).toBe('Accept-Encoding');
  expect(a.res.headers.get('content-length')).toBe(String(a.raw.length));
}

describe('the audit route', () => {
  const page = () => `/v1/admin/b2b-keys/${w.acme.keyId}/audit?limit=100`;

  it('when gzip is accepted then a 25 KB page comes gzipped, and plain when it is not', async () => {
    const zipped = await get(page(), { ...internal(), ...GZIP });
    expect(zipped.res.status).toBe(200);
    expect(Buffer.byteLength(zipped.text)).toBeGreaterThan(20_000);
    expectGzip(zipped);
    expect(JSON.parse(zipped.text).data).toHaveLength(100);
    const plain = await get(page(), internal());
    expectPlain(plain);
    expect(JSON.parse(plain.text)).toEqual(JSON.parse(zipped.text));
  });

  it.each([
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.5', true],
    ['x-gzip', true],
    ['*', true],
    ['identity;q=0, gzip', true],
    ['gzip;q=0', false],
    ['gzip;q=0, *', false],
    ['*;q=0', false],
    ['identity', false],
    ['br', false],
    ['', false],
  ])('Accept-Encoding %j → gzip %s (q-values, * and x-gzip as RFC 9110 §12.5.3 reads them)', async (accept, gzipped) => {
    const a = await get(page(), { ...internal(), 'Accept-Encoding': accept });
    if (gzipped) expectGzip(a);
    else expectPlain(a);
  });

  it('when the page is small then it is still gzipped for a gzip client (partner document part 2: gzip whenever accepted)', async () => {
    const small = await get(`/v1/admin/b2b-keys/${w.acme.keyId}/audit?limit=1`, { ...internal(), ...GZIP });
    expect(Buffer.byteLength(small.text)).toBeLessThan(ERROR_GZIP_MIN_BYTES);
    expectGzip(small);
  });
});

describe('search and snapshot metadata (bodies with an ETag)', () => {
  const SEARCH = '/v1/search?q=th&limit=50';

  it.each([SEARCH, '/v1/snapshot', '/v1/bulk'])('when gzip is accepted then %s is gzipped, its ETag is the hash of the bytes sent and it revalidates per coding', async (path) => {
    const zipped = await get(path, { ...bearer(w.acme.key), ...GZIP });
    expect(zipped.res.status).toBe(200);
    expectGzip(zipped);
    const plain = await get(path, bearer(w.acme.key));
    expectPlain(plain);
    expect(plain.text).toBe(zipped.text);
    expect(zipped.res.headers.get('etag')).toBe(sha(zipped.raw));
    expect(plain.res.headers.get('etag')).toBe(sha(plain.raw));
    const gzipTag = zipped.res.headers.get('etag')!;
    const plainTag = plain.res.headers.get('etag')!;
    const again = await get(path, { ...bearer(w.acme.key), ...GZIP, 'If-None-Match': gzipTag });
    expect(again.res.status).toBe(304);
    expect(again.raw.length).toBe(0);
    expect(again.res.headers.get('vary')).toBe('Accept-Encoding');
    expect(again.res.headers.get('etag')).toBe(gzipTag);
    // The gzip tag does not validate the plain representation, nor the plain tag the gzip one.
    expect((await get(path, { ...bearer(w.acme.key), 'If-None-Match': gzipTag })).res.status).toBe(200);
    expect((await get(path, { ...bearer(w.acme.key), ...GZIP, 'If-None-Match': plainTag })).res.status).toBe(200);
    expect((await get(path, { ...bearer(w.acme.key), 'If-None-Match': plainTag })).res.status).toBe(304);
  });

  it('when HEAD asks for gzip then the headers are those of the gzip GET, without a body', async () => {
    const path = SEARCH;
    const zipped = await get(path, { ...bearer(w.acme.key), ...GZIP });
    const head = await get(path, { ...bearer(w.acme.key), ...GZIP }, { method: 'HEAD' });
    expect(head.raw.length).toBe(0);
    for (const name of ['content-encoding', 'content-length', 'etag', 'vary']) expect(head.res.headers.get(name), name).toBe(zipped.res.headers.get(name));
  });
});

describe('key administration', () => {
  it('when gzip is accepted then a key list and a small answer (mint) are gzipped, both with Vary', async () => {
    const minted = await get('/v1/admin/b2b-keys', { ...internal(), ...GZIP, 'Content-Type': 'application/json' }, { method: 'POST', body: JSON.stringify({ tenant: 'initech' }) });
    expect(minted.res.status).toBe(201);
    expectGzip(minted);
    expect(JSON.parse(minted.text).key).toMatch(/^rxk_/);
    for (let i = 0; i < 20; i++) await app.request('/v1/admin/b2b-keys', { method: 'POST', headers: { ...internal(), 'Content-Type': 'application/json' }, body: JSON.stringify({ tenant: 'initech' }) });
    const list = await get('/v1/admin/b2b-keys', { ...internal(), ...GZIP });
    expect(list.res.status).toBe(200);
    expectGzip(list);
    expect(JSON.parse(list.text).keys.length).toBeGreaterThan(20);
    expectPlain(await get('/v1/admin/b2b-keys', internal()));
  });
});

describe('errors', () => {
  it('when an error body is long (it quotes a long parameter name) then it is gzipped for a gzip client, and a short one is plain, both with Vary', async () => {
    const name = 'x'.repeat(2000);
    const long = await get(`/v1/search?q=bolt&${name}=1`, { ...bearer(w.acme.key), ...GZIP });
    expect(long.res.status).toBe(400);
    expectGzip(long);
    expect(JSON.parse(long.text)).toMatchObject({ error: 'invalid_parameter' });
    expect(long.res.headers.get('cache-control')).toBe('no-store');
    const short = await get('/v1/cards/no-such-card', { ...bearer(w.acme.key), ...GZIP });
    expect(short.res.status).toBe(404);
    expectPlain(short);
    const unauthenticated = await get('/v1/catalog/summary', GZIP);
    expect(unauthenticated.res.status).toBe(401);
    expectPlain(unauthenticated);
  });
});
