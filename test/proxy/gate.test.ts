/**
 * The gate beyond bearer keys (API.md §4, §6): the other caller kinds and their "off when unset"
 * behaviour, the families partners cannot call, the public showcase, 405, and 404 outside /v1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { signSessionCookie, SESSION_COOKIE } from '../../proxy/gate/session.js';
import {
  auditRows, authHarness, bearer, FIRST_PARTY_ORIGIN, INTERNAL_KEY, SESSION_SECRET, T0, type AuthHarness,
} from '../helpers/auth-fixtures.js';

const ALL_ON = {
  CATALOG_INTERNAL_KEY: INTERNAL_KEY,
  CATALOG_SESSION_SECRET: SESSION_SECRET,
  CATALOG_PUBLIC_ORIGINS: `${FIRST_PARTY_ORIGIN},https://other.example.test`,
};

let h: AuthHarness;
afterEach(() => h?.close());

const passesGate = (res: Response) => expect([401, 403, 429]).not.toContain(res.status);
const cookie = (value: string) => ({ Cookie: `${SESSION_COOKIE}=${value}` });
const session = (secret = SESSION_SECRET, exp = T0 / 1000 + 3600) => cookie(signSessionCookie(secret, { sub: 'user-42', exp }));

describe('paths', () => {
  it('when a /v1 path is unknown then 401 without a credential and 404 not_found with a key', async () => {
    h = authHarness();
    const { key } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    expect((await h.app.request('/v1/no-such-thing')).status).toBe(401);
    expect((await h.app.request('/v1')).status).toBe(401);
    const res = await h.app.request('/v1/no-such-thing', { headers: bearer(key) });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'not_found' });
    expect(auditRows(h.state)).toMatchObject([{ status: 404, route: '(unmatched)', path: '/v1/no-such-thing' }]);
  });

  it('when a path is outside /v1 then 404 with a request id, whatever the credential', async () => {
    h = authHarness();
    for (const path of ['/', '/v2/cards/x', '/v1x/cards', '/health']) {
      const res = await h.app.request(path);
      expect(res.status).toBe(404);
      const body = await res.json();
      expect(body).toEqual({ error: 'not_found', message: expect.any(String), requestId: res.headers.get('X-Request-Id') });
    }
  });

  it('when two requests are made then each response has its own X-Request-Id', async () => {
    h = authHarness();
    const a = (await h.app.request('/v1/cards/x')).headers.get('X-Request-Id');
    const b = (await h.app.request('/v1/cards/x')).headers.get('X-Request-Id');
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(a).not.toBe(b);
  });
});

describe('families partners cannot call', () => {
  it.each([
    ['GET', '/v1/me'],
    ['GET', '/v1/me/binders'],
    ['GET', '/v1/observations'],
    ['POST', '/v1/observations'],
    ['GET', '/v1/admin/b2b-keys'],
    ['POST', '/v1/admin/b2b-keys'],
    ['DELETE', '/v1/admin/b2b-keys/abcdefgh'],
    ['POST', '/v1/admin/b2b-keys/abcdefgh/rotate'],
    ['POST', '/v1/admin/b2b-keys/abcdefgh/audit'],
    ['GET', '/v1/admin/anything'],
    ['GET', '/v1/%6De/binders'],
  ])('when a valid key calls %s %s then 403 forbidden, rate-limited and audited', async (method, path) => {
    h = authHarness();
    const { key, keyId } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    const res = await h.app.request(path, { method, headers: bearer(key) });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: 'forbidden' });
    expect(res.headers.get('RateLimit')).toBe('"free";r=59;t=30');
    expect(auditRows(h.state)).toMatchObject([{ api_key_id: keyId, status: 403 }]);
  });
});

describe('read-only partner routes', () => {
  it('when a valid key sends POST, PUT or DELETE to a partner path then 405 with Allow: GET, HEAD', async () => {
    h = authHarness();
    const { key } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const res = await h.app.request('/v1/cards/base1-4', { method, headers: bearer(key) });
      expect(res.status).toBe(405);
      expect(res.headers.get('Allow')).toBe('GET, HEAD');
      expect(await res.json()).toMatchObject({ error: 'method_not_allowed' });
    }
    expect(auditRows(h.state).map((r) => r.status)).toEqual([405, 405, 405, 405]);
  });

  it('when a non-GET comes without a credential then the gate answers first (401)', async () => {
    h = authHarness();
    expect((await h.app.request('/v1/cards/base1-4', { method: 'POST' })).status).toBe(401);
  });

  it('when a valid key sends HEAD then it passes the gate', async () => {
    h = authHarness();
    const { key } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    passesGate(await h.app.request('/v1/catalog/summary', { method: 'HEAD', headers: bearer(key) }));
  });
});

describe('public showcase', () => {
  it('when /v1/u/:handle or below is called without a credential then it passes the gate and is not audited', async () => {
    h = authHarness();
    for (const path of ['/v1/u/alice', '/v1/u/alice/binders']) passesGate(await h.app.request(path));
    expect(auditRows(h.state)).toHaveLength(0);
  });

  it('when /v1/u has no handle then 401', async () => {
    h = authHarness();
    expect((await h.app.request('/v1/u')).status).toBe(401);
    expect((await h.app.request('/v1/u/')).status).toBe(401);
  });

  it('when a revoked key is sent to the public showcase then 401 invalid_token: a sent key is always checked', async () => {
    h = authHarness();
    const minted = h.keys.mint({ tenant: 'acme', tier: 'free' });
    h.keys.revoke(minted.keyId);
    const res = await h.app.request('/v1/u/alice', { headers: bearer(minted.key) });
    expect(res.status).toBe(401);
    expect(res.headers.get('WWW-Authenticate')).toContain('error="invalid_token"');
  });
});

describe('session cookie', () => {
  it('when the cookie is signed with the configured secret then the request passes, unlimited and unaudited', async () => {
    h = authHarness({ env: ALL_ON });
    const res = await h.app.request('/v1/catalog/summary', { headers: session() });
    passesGate(res);
    expect(res.headers.get('RateLimit')).toBeNull();
    expect(auditRows(h.state)).toHaveLength(0);
  });

  it.each([
    ['signed with another secret', () => session('another-secret-of-enough-length-0123456789')],
    ['expired', () => session(SESSION_SECRET, T0 / 1000 - 1)],
    ['tampered', () => cookie(signSessionCookie(SESSION_SECRET, { sub: 'user-42', exp: T0 / 1000 + 60 }).replace(/^./, (ch) => (ch === 'e' ? 'f' : 'e')))],
    ['garbled', () => cookie('not-a-session')],
  ])('when the cookie is %s then 401 without error=', async (_label, headers) => {
    h = authHarness({ env: ALL_ON });
    const res = await h.app.request('/v1/catalog/summary', { headers: headers() });
    expect(res.status).toBe(401);
    expect(res.headers.get('WWW-Authenticate')).toBe('Bearer realm="catalog", scope="v1"');
  });

  it('when no session secret is configured then even a well-signed cookie is ignored', async () => {
    h = authHarness({ env: { CATALOG_INTERNAL_KEY: INTERNAL_KEY } });
    expect((await h.app.request('/v1/catalog/summary', { headers: session() })).status).toBe(401);
  });
});

describe('internal key', () => {
  it('when X-Service-Internal-Key matches then the request passes, unlimited and unaudited', async () => {
    h = authHarness({ env: ALL_ON });
    const res = await h.app.request('/v1/catalog/summary', { headers: { 'X-Service-Internal-Key': INTERNAL_KEY } });
    passesGate(res);
    expect(res.headers.get('RateLimit')).toBeNull();
    expect(auditRows(h.state)).toHaveLength(0);
  });

  it('when the header is wrong then 401', async () => {
    h = authHarness({ env: ALL_ON });
    for (const value of [INTERNAL_KEY + 'x', INTERNAL_KEY.slice(0, -1), '']) {
      expect((await h.app.request('/v1/catalog/summary', { headers: { 'X-Service-Internal-Key': value } })).status).toBe(401);
    }
  });

  it('when no internal key is configured then the header is ignored', async () => {
    h = authHarness({ env: {} });
    expect((await h.app.request('/v1/catalog/summary', { headers: { 'X-Service-Internal-Key': INTERNAL_KEY } })).status).toBe(401);
  });
});

describe('same-origin anonymous', () => {
  it('when Origin is a configured first-party origin then the request passes', async () => {
    h = authHarness({ env: ALL_ON });
    passesGate(await h.app.request('/v1/catalog/summary', { headers: { Origin: FIRST_PARTY_ORIGIN } }));
    passesGate(await h.app.request('/v1/catalog/summary', { headers: { Origin: 'https://other.example.test' } }));
  });

  it('when Sec-Fetch-Site is same-origin and an origin is configured then the request passes', async () => {
    h = authHarness({ env: ALL_ON });
    passesGate(await h.app.request('/v1/catalog/summary', { headers: { 'Sec-Fetch-Site': 'same-origin' } }));
  });

  it('when Origin is not configured or the site is cross-site then 401', async () => {
    h = authHarness({ env: ALL_ON });
    expect((await h.app.request('/v1/catalog/summary', { headers: { Origin: 'https://evil.example.test' } })).status).toBe(401);
    expect((await h.app.request('/v1/catalog/summary', { headers: { Origin: `${FIRST_PARTY_ORIGIN}:8443` } })).status).toBe(401);
    expect((await h.app.request('/v1/catalog/summary', { headers: { 'Sec-Fetch-Site': 'cross-site' } })).status).toBe(401);
  });

  it('when no origin is configured then same-origin anonymous access is off', async () => {
    h = authHarness({ env: { CATALOG_INTERNAL_KEY: INTERNAL_KEY } });
    expect((await h.app.request('/v1/catalog/summary', { headers: { 'Sec-Fetch-Site': 'same-origin' } })).status).toBe(401);
    expect((await h.app.request('/v1/catalog/summary', { headers: { Origin: FIRST_PARTY_ORIGIN } })).status).toBe(401);
  });

  it('when a first-party caller tries the admin routes then 403', async () => {
    h = authHarness({ env: ALL_ON });
    const res = await h.app.request('/v1/admin/b2b-keys', { headers: { Origin: FIRST_PARTY_ORIGIN } });
    expect(res.status).toBe(403);
  });
});

describe('revocation across workers', () => {
  it('when a key is revoked through one app then another app on the same state file refuses it on the next request', async () => {
    h = authHarness();
    const { key, keyId } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    const { createApp } = await import('../../proxy/app.js');
    const { openStateDb } = await import('../../proxy/state/open.js');
    const other = openStateDb(h.stateFile);
    try {
      const worker2 = createApp({ db: other, config: h.config, snapshots: { current: async () => null }, clock: h.clock });
      passesGate(await worker2.request('/v1/catalog/summary', { headers: bearer(key) }));
      const revoke = await h.app.request(`/v1/admin/b2b-keys/${keyId}`, { method: 'DELETE', headers: { 'X-Service-Internal-Key': INTERNAL_KEY } });
      expect(revoke.status).toBe(200);
      expect((await worker2.request('/v1/catalog/summary', { headers: bearer(key) })).status).toBe(401);
    } finally {
      other.close();
    }
  });
});
