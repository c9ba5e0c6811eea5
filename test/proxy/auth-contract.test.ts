/**
 * The auth contract (API.md §4-6), run against every route of API.md §3 through the front door:
 * a real app on each implementation of the state (a real SQLite state file; the fleet's real
 * PostgreSQL and Redis, issue 18), and after each case the audit rows read where they are kept.
 * The catalog routes answer from an empty snapshot source (503/404): a valid key only has to pass
 * the gate here; the documents themselves are tested with the routes.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UNAUTHENTICATED_MESSAGE } from '../../proxy/gate/gate.js';
import type { MintedKey } from '../../proxy/keys/record.js';
import { bearer } from '../helpers/auth-fixtures.js';
import { openFleetWorld, STATE_KINDS, stateHarness, type FleetWorld, type StateHarness } from '../helpers/state-harness.js';

interface RouteCase {
  route: string;
  /** Request path (with query) for a key; the audit route needs the caller's own key ID. */
  path: (own: MintedKey) => string;
}

const fixed = (route: string, path: string): RouteCase => ({ route, path: () => path });

const ROUTES: RouteCase[] = [
  fixed('/v1/cards/:id', '/v1/cards/base1-4?range=3mo'),
  fixed('/v1/figures/:id', '/v1/figures/amiibo-mario'),
  fixed('/v1/oracle/:id', '/v1/oracle/0a1b2c3d'),
  fixed('/v1/sets/:game/:setCode', '/v1/sets/mtg/lea'),
  fixed('/v1/search', '/v1/search?q=pikachu'),
  fixed('/v1/trending', '/v1/trending?game=mtg'),
  fixed('/v1/recent', '/v1/recent'),
  fixed('/v1/artists/:slug', '/v1/artists/rebecca-guay'),
  fixed('/v1/figures/series/:id', '/v1/figures/series/smash-bros'),
  fixed('/v1/discover/sets', '/v1/discover/sets'),
  fixed('/v1/discover/users', '/v1/discover/users'),
  fixed('/v1/discover/binders', '/v1/discover/binders'),
  fixed('/v1/discover/activity', '/v1/discover/activity'),
  fixed('/v1/discover/sparklines', '/v1/discover/sparklines'),
  fixed('/v1/series/:id/pull-stats', '/v1/series/smash-bros/pull-stats'),
  fixed('/v1/catalog/summary', '/v1/catalog/summary'),
  { route: '/v1/admin/b2b-keys/:id/audit', path: (own) => `/v1/admin/b2b-keys/${own.keyId}/audit` },
];

const LIMIT = 3;
const CHALLENGE = 'Bearer realm="catalog", scope="v1"';
const INVALID_TOKEN_CHALLENGE = `${CHALLENGE}, error="invalid_token"`;
const pathOnly = (p: string) => p.split('?')[0];

async function expect401(res: Response, challenge: string): Promise<void> {
  expect(res.status).toBe(401);
  expect(res.headers.get('Content-Type')).toBe('application/json');
  expect(res.headers.get('WWW-Authenticate')).toBe(challenge);
  expect(res.headers.get('Cache-Control')).toBe('no-store');
  expect(res.headers.get('RateLimit')).toBeNull();
  const requestId = res.headers.get('X-Request-Id');
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(await res.json()).toEqual({ error: 'unauthenticated', message: UNAUTHENTICATED_MESSAGE, requestId });
}

describe.each(STATE_KINDS)('on the %s state', (kind) => {
  let world: FleetWorld | null = null;
  beforeAll(async () => {
    if (kind === 'fleet') world = await openFleetWorld();
  });
  afterAll(async () => {
    await world?.close();
  });

  describe.each(ROUTES)('auth contract on $route', ({ route, path }) => {
    let h: StateHarness;
    let own: MintedKey;

    beforeEach(async () => {
      h = await stateHarness(kind, world, { env: { CATALOG_INTERNAL_KEY: 'internal-key-for-tests-0123456789', CATALOG_TIER_LIMITS: `free=${LIMIT}` } });
      own = await h.keys.mint({ tenant: 'acme', tier: 'free' });
    });
    afterEach(() => h.close());

    it('when no credential is sent then 401 with the challenge (no error=) and no audit row', async () => {
      await expect401(await h.app.request(path(own)), CHALLENGE);
      expect(await h.rows()).toHaveLength(0);
    });

    it.each([
      ['a non-bearer scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
      ['a bearer header without a key', 'Bearer'],
      ['a key of the wrong shape', 'Bearer rxk_tooShort'],
      ['a key without the prefix', `Bearer ${'a'.repeat(36)}`],
    ])('when the Authorization header is malformed (%s) then 401 invalid_token and no audit row', async (_label, header) => {
      await expect401(await h.app.request(path(own), { headers: { Authorization: header } }), INVALID_TOKEN_CHALLENGE);
      expect(await h.rows()).toHaveLength(0);
    });

    it('when the key is unknown, even with a known key ID, then 401 invalid_token and no audit row', async () => {
      const forged = own.key.slice(0, 12) + (own.key.endsWith('A') ? 'B' : 'A').repeat(24);
      await expect401(await h.app.request(path(own), { headers: bearer(forged) }), INVALID_TOKEN_CHALLENGE);
      const never = `rxk_${'Z'.repeat(32)}`;
      await expect401(await h.app.request(path(own), { headers: bearer(never) }), INVALID_TOKEN_CHALLENGE);
      expect(await h.rows()).toHaveLength(0);
    });

    it('when the key is revoked then 401 invalid_token and one 401 audit row under that key', async () => {
      await h.keys.revoke(own.keyId);
      const res = await h.app.request(path(own), { headers: bearer(own.key) });
      const requestId = res.headers.get('X-Request-Id');
      await expect401(res, INVALID_TOKEN_CHALLENGE);
      expect(await h.rows()).toMatchObject([{ api_key_id: own.keyId, tenant_name: 'acme', status: 401, route: '(unmatched)', request_id: requestId, path: pathOnly(path(own)) }]);
    });

    it('when the key is expired then 401 invalid_token and one 401 audit row under that key', async () => {
      const expiring = await h.keys.mint({ tenant: 'acme', tier: 'free', expiresAt: new Date(h.t0 + 1000).toISOString() });
      h.clock.now = h.t0 + 1000;
      await expect401(await h.app.request(path(expiring), { headers: bearer(expiring.key) }), INVALID_TOKEN_CHALLENGE);
      expect(await h.rows()).toMatchObject([{ api_key_id: expiring.keyId, status: 401 }]);
    });

    it('when the key is valid then the request passes the gate, carries the rate-limit headers and is audited once', async () => {
      const res = await h.app.request(path(own), { headers: bearer(own.key) });
      expect([401, 403, 405, 429]).not.toContain(res.status);
      expect(res.headers.get('RateLimit-Policy')).toBe(`"free";q=${LIMIT};w=60`);
      expect(res.headers.get('RateLimit')).toBe(`"free";r=${LIMIT - 1};t=30`);
      const rows = await h.rows();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        api_key_id: own.keyId,
        tenant_name: 'acme',
        route,
        status: res.status,
        request_id: res.headers.get('X-Request-Id'),
        path: pathOnly(path(own)),
        timestamp: new Date(h.t0).toISOString(),
      });
    });

    it('when the key is over its limit then 429 with Retry-After, and every request has its audit row', async () => {
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i <= LIMIT; i++) {
        last = await h.app.request(path(own), { headers: bearer(own.key) });
        statuses.push(last.status);
      }
      expect(statuses.slice(0, LIMIT)).not.toContain(429);
      expect(last!.status).toBe(429);
      expect(last!.headers.get('Retry-After')).toBe('30');
      expect(last!.headers.get('RateLimit')).toBe('"free";r=0;t=30');
      expect(last!.headers.get('Cache-Control')).toBe('no-store');
      expect(await last!.json()).toMatchObject({ error: 'rate_limited', requestId: last!.headers.get('X-Request-Id') });
      const rows = await h.rows();
      expect(rows.map((r) => r.status)).toEqual(statuses);
      expect(rows.every((r) => r.api_key_id === own.keyId)).toBe(true);
      expect(rows[LIMIT].route).toBe('(unmatched)');
    });

    if (route === '/v1/admin/b2b-keys/:id/audit') {
      it('when the key ID belongs to another tenant then 404 exactly like an unknown ID, audited under the caller', async () => {
        const foreign = await h.keys.mint({ tenant: 'globex', tier: 'free' });
        const res = await h.app.request(path(foreign), { headers: bearer(own.key) });
        expect(res.status).toBe(404);
        const body = await res.json();
        const unknown = await h.app.request('/v1/admin/b2b-keys/ZZZZZZZZ/audit', { headers: bearer(own.key) });
        const unknownBody = await unknown.json();
        expect(unknown.status).toBe(404);
        expect({ ...body, requestId: null, message: null }).toEqual({ ...unknownBody, requestId: null, message: null });
        expect(body.message.replace(foreign.keyId, 'ID')).toBe(unknownBody.message.replace('ZZZZZZZZ', 'ID'));
        expect(await h.rows()).toMatchObject([
          { api_key_id: own.keyId, status: 404, route },
          { api_key_id: own.keyId, status: 404, route },
        ]);
      });

      it('when the key ID is another key of the same tenant then its rows are readable', async () => {
        const sibling = await h.keys.mint({ tenant: 'acme', tier: 'free' });
        await h.app.request('/v1/cards/x', { headers: bearer(sibling.key) });
        const res = await h.app.request(path(sibling), { headers: bearer(own.key) });
        expect(res.status).toBe(200);
        expect((await res.json()).data).toMatchObject([{ apiKeyId: sibling.keyId, path: '/v1/cards/x' }]);
      });
    }
  });
});
