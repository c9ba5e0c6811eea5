/**
 * Tenancy and privacy (issue 6). A fast-check walk over every admin route, method and key ID with
 * one tenant's key never shows anything of another tenant (its key IDs, its name, its audit rows).
 * Through the proxy over a real compiled catalog, no user who did not opt into the showcase (or is
 * anonymous) reaches any answer: their showcase is 404 like an unknown handle, and search and every
 * discover feed page never name them.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shownKeyId } from '../../proxy/keys/format.js';
import { auditRows, bearer } from '../helpers/auth-fixtures.js';
import type { CompiledCatalog } from '../helpers/compiled-catalog.js';
import { compiledWorld, type FixtureWorld } from '../helpers/fixture-app.js';

let w: FixtureWorld;
let catalog: CompiledCatalog;
let app: ReturnType<FixtureWorld['app']>;

beforeAll(async () => {
  ({ world: w, catalog, app } = await compiledWorld());
  // Both tenants have audit history.
  for (const k of [w.acme.key, w.globex.key]) for (let i = 0; i < 3; i++) await app.request('/v1/catalog/summary', { headers: bearer(k) });
});
afterAll(() => w?.close());

describe('one tenant never sees another', () => {
  it('when acme\'s key walks every admin route, method and key ID (fast-check, 300 runs) then no answer holds globex\'s key IDs, name or rows', async () => {
    const globexMarks = [w.globex.keyId, 'globex'];
    const unknownBody = async () => (await app.request('/v1/admin/b2b-keys/ZZZZZZZZ/audit', { headers: bearer(w.acme.key) })).json();
    const { requestId: _, ...unknownShape } = await unknownBody() as Record<string, unknown>;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'),
        fc.constantFrom('/v1/admin/b2b-keys', '/v1/admin/b2b-keys/$', '/v1/admin/b2b-keys/$/audit', '/v1/admin/b2b-keys/$/rotate', '/v1/admin/$', '/v1/admin/b2b-keys/$/audit/$'),
        fc.constantFrom(w.globex.keyId, w.acme.keyId, 'globex', w.globex.keyId.toLowerCase(), `${w.globex.keyId}%00`, '..', '%2e%2e'),
        fc.constantFrom('', '?tenant=globex', '?since=2000-01-01&limit=100', `?keyId=${w.globex.keyId}`),
        async (method, route, id, query) => {
          const res = await app.request(route.replace(/\$/g, id) + query, { method, headers: bearer(w.acme.key) });
          const text = await res.text();
          // What the caller sent may be echoed back ("no key with ID …"); anything else of globex may not.
          // acme's own audit rows hold the paths acme itself requested (this walk's earlier probes).
          let scrubbed = text.replace(/"path":"[^"]*"/g, '');
          // The echo may be JSON-escaped once (body) or twice (a message quoting the ID, in the body),
          // or cut to its first 8 characters (a key-ID argument is echoed as at most a key ID).
          const escaped = (v: string) => JSON.stringify(v).slice(1, -1);
          const decoded = decodeURIComponent(id);
          for (const echo of [escaped(escaped(decoded)), escaped(decoded), escaped(shownKeyId(decoded)), decoded, id]) scrubbed = scrubbed.split(echo).join('');
          for (const mark of globexMarks) if (scrubbed.includes(mark)) throw new Error(`${method} ${route} ${id}${query}: ${res.status} shows ${mark}: ${text.slice(0, 200)}`);
          expect([200, 400, 403, 404, 405]).toContain(res.status);
          if (route === '/v1/admin/b2b-keys/$/audit' && id === w.globex.keyId && method === 'GET' && query === '') {
            // Another tenant's key ID answers exactly like one that does not exist.
            const { requestId: __, ...shape } = JSON.parse(text) as Record<string, unknown>;
            expect(res.status).toBe(404);
            expect({ ...shape, message: String(shape.message).replace(w.globex.keyId, 'ZZZZZZZZ') }).toEqual(unknownShape);
          }
        },
      ),
      { numRuns: 300 },
    );
    // acme's own audit route shows acme's rows only.
    const own = await (await app.request(`/v1/admin/b2b-keys/${w.acme.keyId}/audit?limit=100`, { headers: bearer(w.acme.key) })).json() as { data: { tenantName: string }[] };
    expect(own.data.length).toBeGreaterThan(0);
    expect(new Set(own.data.map((r) => r.tenantName))).toEqual(new Set(['acme']));
    expect(auditRows(w.state).some((r) => r.tenant_name === 'globex')).toBe(true);
  }, 60_000);
});

describe('no user who did not opt in reaches any answer', () => {
  it('when every hidden user is looked up by handle, searched by handle and name, and every discover page is read then none of them appears', async () => {
    const hidden = catalog.users.filter((u) => !u.showcase || u.anonymous);
    const shown = catalog.users.filter((u) => u.showcase && !u.anonymous);
    expect(hidden.length).toBeGreaterThan(0);
    expect(shown.length).toBeGreaterThan(0); // otherwise the feeds would be empty and prove nothing
    const marks = hidden.flatMap((u) => [u.id, ...(u.handle ? [u.handle] : [])]);
    const get = async (path: string) => {
      const res = await app.request(path, { headers: bearer(w.globex.key) });
      return { status: res.status, text: await res.text() };
    };
    const bodies: string[] = [];
    for (const u of hidden) {
      if (u.handle) {
        for (const path of [`/v1/u/${u.handle}`, `/v1/u/${u.handle}/binders`]) {
          const r = await get(path);
          expect(r.status, path).toBe(404);
          bodies.push(r.text.replace(u.handle, '')); // the 404 names the path it was asked, nothing more
        }
        bodies.push((await get(`/v1/search?q=${encodeURIComponent(u.handle)}&limit=100`)).text.replace(encodeURIComponent(u.handle), ''));
      }
      if (u.displayName) bodies.push((await get(`/v1/search?q=${encodeURIComponent(u.displayName)}&limit=100`)).text);
    }
    for (const feed of ['users', 'binders', 'activity', 'sets', 'sparklines']) {
      for (let page = 1; page <= 20; page++) {
        const r = await get(`/v1/discover/${feed}?limit=100&page=${page}`);
        expect(r.status).toBe(200);
        bodies.push(r.text);
        if ((JSON.parse(r.text) as { page: { hasMore: boolean } }).page.hasMore === false) break;
      }
    }
    const all = bodies.join('\n');
    for (const mark of marks) expect(all.includes(`"${mark}"`), mark).toBe(false);
    // The opted-in users do appear, so the scan looked at real feed content.
    expect(shown.some((u) => u.handle !== null && all.includes(`"${u.handle}"`))).toBe(true);
  }, 60_000);
});
