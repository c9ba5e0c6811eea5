/** Key administration over HTTP (API.md §4): internal key only, validation naming the field, no-store. */
import { afterEach, describe, expect, it } from 'vitest';
import { KEY_PATTERN } from '../../proxy/keys/format.js';
import { authHarness, bearer, internal, T0, type AuthHarness } from '../helpers/auth-fixtures.js';

let h: AuthHarness;
afterEach(() => h?.close());

const adminHeaders = () => ({ 'Content-Type': 'application/json', ...internal() });
const post = (harness: AuthHarness, path: string, body: unknown) =>
  harness.app.request(path, { method: 'POST', headers: adminHeaders(), body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('POST /v1/admin/b2b-keys', () => {
  it('when the internal key mints a key then 201 shows the key once and it works at once', async () => {
    h = authHarness();
    const res = await post(h, '/v1/admin/b2b-keys', { tenant: 'acme', tier: 'standard', expiresAt: '2027-01-31' });
    expect(res.status).toBe(201);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const body = await res.json();
    expect(body).toEqual({
      key: expect.stringMatching(KEY_PATTERN),
      keyId: body.key.slice(4, 12),
      tenant: 'acme',
      tier: 'standard',
      createdAt: new Date(T0).toISOString(),
      expiresAt: '2027-01-31T00:00:00.000Z',
    });
    const used = await h.app.request('/v1/catalog/summary', { headers: bearer(body.key) });
    expect(used.headers.get('RateLimit-Policy')).toBe('"standard";q=600;w=60');
  });

  it('when no tier is given then the key is free tier without expiry', async () => {
    h = authHarness();
    expect(await (await post(h, '/v1/admin/b2b-keys', { tenant: 'acme' })).json()).toMatchObject({ tier: 'free', expiresAt: null });
  });

  it.each([
    [{}, 'tenant'],
    [{ tenant: '' }, 'tenant'],
    [{ tenant: 'a b' }, 'tenant'],
    [{ tenant: 42 }, 'tenant'],
    [{ tenant: 'acme', tier: 'gold' }, 'tier'],
    [{ tenant: 'acme', expiresAt: 'soon' }, 'expiresAt'],
    [{ tenant: 'acme', expiresAt: '2020-01-01' }, 'expiresAt'],
    [{ tenant: 'acme', owner: 'bob' }, 'owner'],
    ['not json', 'body'],
    [[1, 2], 'body'],
  ])('when the body is %j then 400 invalid_parameter naming %s', async (body, field) => {
    h = authHarness();
    const res = await post(h, '/v1/admin/b2b-keys', body);
    expect(res.status).toBe(400);
    const parsed = await res.json();
    expect(parsed).toMatchObject({ error: 'invalid_parameter' });
    expect(parsed.message).toContain(field);
    expect(h.keys.list()).toHaveLength(0);
  });

  it('when no credential, a bearer key or a wrong internal key is used then 401/403 and nothing is minted', async () => {
    h = authHarness();
    const { key } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    const body = JSON.stringify({ tenant: 'mallory' });
    expect((await h.app.request('/v1/admin/b2b-keys', { method: 'POST', body })).status).toBe(401);
    expect((await h.app.request('/v1/admin/b2b-keys', { method: 'POST', body, headers: bearer(key) })).status).toBe(403);
    expect((await h.app.request('/v1/admin/b2b-keys', { method: 'POST', body, headers: { 'X-Service-Internal-Key': 'wrong-key-of-some-length-000' } })).status).toBe(401);
    expect(h.keys.list({ tenant: 'mallory' })).toHaveLength(0);
  });
});

describe('GET /v1/admin/b2b-keys', () => {
  it('when keys are listed then no key and no hash appears, and ?tenant= filters', async () => {
    h = authHarness();
    const a = h.keys.mint({ tenant: 'acme', tier: 'free' });
    h.keys.mint({ tenant: 'globex', tier: 'enterprise' });
    const res = await h.app.request('/v1/admin/b2b-keys', { headers: internal() });
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const text = await res.text();
    expect(text).not.toContain(a.key);
    expect(text).not.toMatch(/hash/i);
    expect(JSON.parse(text).keys).toHaveLength(2);
    const filtered = await (await h.app.request('/v1/admin/b2b-keys?tenant=acme', { headers: internal() })).json();
    expect(filtered.keys).toEqual([{ keyId: a.keyId, tenant: 'acme', tier: 'free', createdAt: a.createdAt, expiresAt: null, revokedAt: null, replacedBy: null }]);
  });

  it('when PUT is sent then 405 with the allowed methods', async () => {
    h = authHarness();
    const res = await h.app.request('/v1/admin/b2b-keys', { method: 'PUT', headers: internal() });
    expect(res.status).toBe(405);
    expect(res.headers.get('Allow')).toBe('GET, HEAD, POST');
  });
});

describe('DELETE /v1/admin/b2b-keys/:id', () => {
  it('when a key is revoked then 200 with revokedAt set, and the key is refused on the next request', async () => {
    h = authHarness();
    const { key, keyId } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    const res = await h.app.request(`/v1/admin/b2b-keys/${keyId}`, { method: 'DELETE', headers: internal() });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ keyId, tenant: 'acme', revokedAt: new Date(T0).toISOString() });
    expect((await h.app.request('/v1/catalog/summary', { headers: bearer(key) })).status).toBe(401);
  });

  it('when the key ID is unknown then 404', async () => {
    h = authHarness();
    const res = await h.app.request('/v1/admin/b2b-keys/ZZZZZZZZ', { method: 'DELETE', headers: internal() });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'not_found' });
  });
});

describe('POST /v1/admin/b2b-keys/:id/rotate', () => {
  it('when a key is rotated then 201 with a new key of the same tenant and tier, and the old key stops working', async () => {
    h = authHarness();
    const old = h.keys.mint({ tenant: 'acme', tier: 'enterprise' });
    const res = await h.app.request(`/v1/admin/b2b-keys/${old.keyId}/rotate`, { method: 'POST', headers: internal() });
    expect(res.status).toBe(201);
    const fresh = await res.json();
    expect(fresh).toMatchObject({ tenant: 'acme', tier: 'enterprise', key: expect.stringMatching(KEY_PATTERN) });
    expect((await h.app.request('/v1/catalog/summary', { headers: bearer(old.key) })).status).toBe(401);
    expect((await h.app.request('/v1/catalog/summary', { headers: bearer(fresh.key) })).status).not.toBe(401);
    expect(h.keys.get(old.keyId)).toMatchObject({ replacedBy: fresh.keyId });
  });

  it('when the key is unknown or already revoked then 404 or 400', async () => {
    h = authHarness();
    expect((await h.app.request('/v1/admin/b2b-keys/ZZZZZZZZ/rotate', { method: 'POST', headers: internal() })).status).toBe(404);
    const old = h.keys.mint({ tenant: 'acme', tier: 'free' });
    h.keys.revoke(old.keyId);
    const res = await h.app.request(`/v1/admin/b2b-keys/${old.keyId}/rotate`, { method: 'POST', headers: internal() });
    expect(res.status).toBe(400);
  });
});
