/** Audit rows (API.md §5): what is written, the audit route (filters, paging, envelope), retention. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createAuditPruner, startAuditRetention } from '../../proxy/audit/retention.js';
import { signSessionCookie, SESSION_COOKIE } from '../../proxy/gate/session.js';
import { auditRows, authHarness, bearer, internal, INTERNAL_KEY, SESSION_SECRET, T0, type AuthHarness } from '../helpers/auth-fixtures.js';

let h: AuthHarness;
afterEach(() => h?.close());

const DAY = 86_400_000;

/** Makes `n` requests one second apart starting at T0; returns their request ids, oldest first. */
async function traffic(harness: AuthHarness, key: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    harness.clock.now = T0 + i * 1000;
    const res = await harness.app.request(`/v1/cards/card-${i}?range=all`, { headers: bearer(key) });
    ids.push(res.headers.get('X-Request-Id')!);
  }
  return ids;
}

describe('audit rows', () => {
  it('when a bearer request is answered then its row is committed: another connection sees it at once', async () => {
    h = authHarness();
    const { key, keyId } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    const res = await h.app.request('/v1/cards/base1-4?range=12mo', { headers: bearer(key) });
    const other = new Database(h.stateFile, { readonly: true });
    const row = other.prepare('SELECT * FROM audit_log').get() as Record<string, unknown>;
    other.close();
    expect(row).toMatchObject({
      api_key_id: keyId,
      tenant_name: 'acme',
      route: '/v1/cards/:id',
      status: res.status,
      timestamp: '2026-11-20T10:00:30.000Z',
      request_id: res.headers.get('X-Request-Id'),
      path: '/v1/cards/base1-4',
      bytes: Number(res.headers.get('Content-Length')),
      snapshot_id: null,
    });
    expect(row.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('when requests carry a key then neither the key nor the query string is stored anywhere in the state files', async () => {
    h = authHarness();
    const { key } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    await h.app.request('/v1/search?q=secret-search-text', { headers: bearer(key) });
    await h.app.request('/v1/me/x', { headers: bearer(key) });
    const dir = join(h.stateFile, '..');
    for (const file of readdirSync(dir)) {
      const bytes = readFileSync(join(dir, file));
      expect(bytes.includes(Buffer.from(key)), file).toBe(false);
      expect(bytes.includes(Buffer.from('secret-search-text')), file).toBe(false);
    }
    expect(auditRows(h.state)).toHaveLength(2);
  });

  it('when the caller is not a bearer key then no row is written', async () => {
    h = authHarness({ env: { CATALOG_INTERNAL_KEY: INTERNAL_KEY, CATALOG_SESSION_SECRET: SESSION_SECRET } });
    await h.app.request('/v1/catalog/summary', { headers: internal() });
    await h.app.request('/v1/catalog/summary', { headers: { Cookie: `${SESSION_COOKIE}=${signSessionCookie(SESSION_SECRET, { sub: 'u', exp: T0 / 1000 + 60 })}` } });
    await h.app.request('/v1/u/alice');
    await h.app.request('/v1/catalog/summary');
    expect(auditRows(h.state)).toHaveLength(0);
  });
});

describe('audit route', () => {
  it('when rows are read then they come newest first in an audit envelope, private and no-store', async () => {
    h = authHarness();
    const { key, keyId } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    const ids = await traffic(h, key, 3);
    const res = await h.app.request(`/v1/admin/b2b-keys/${keyId}/audit`, { headers: bearer(key) });
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('private, no-store');
    expect(res.headers.get('Content-Type')).toBe('application/json');
    const body = await res.json();
    expect(body).toMatchObject({ apiVersion: 'v1', kind: 'audit', schemaVersion: 1, page: { page: 1, limit: 20, total: 3, totalPages: 1, hasMore: false }, warnings: [] });
    expect(body.data.map((r: { requestId: string }) => r.requestId)).toEqual([...ids].reverse());
    expect(Object.keys(body.data[0]).sort()).toEqual(['apiKeyId', 'bytes', 'durationMs', 'path', 'requestId', 'route', 'snapshotId', 'status', 'tenantName', 'timestamp']);
    expect(body.data[0]).toMatchObject({ apiKeyId: keyId, tenantName: 'acme', route: '/v1/cards/:id', path: '/v1/cards/card-2', timestamp: new Date(T0 + 2000).toISOString() });
  });

  it('when since and until are given then only rows with since <= timestamp < until are returned', async () => {
    h = authHarness();
    const { key, keyId } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    const ids = await traffic(h, key, 5);
    const since = new Date(T0 + 1000).toISOString();
    const until = new Date(T0 + 3000).toISOString();
    const res = await h.app.request(`/v1/admin/b2b-keys/${keyId}/audit?since=${since}&until=${until}`, { headers: internal() });
    const body = await res.json();
    expect(body.data.map((r: { requestId: string }) => r.requestId)).toEqual([ids[2], ids[1]]);
    expect(body.page.total).toBe(2);
  });

  it('when page and limit are given then rows are paged with a Link header, and a limit over 100 is capped with a warning', async () => {
    h = authHarness();
    const { key, keyId } = h.keys.mint({ tenant: 'acme', tier: 'standard' });
    const ids = await traffic(h, key, 5);
    const res = await h.app.request(`/v1/admin/b2b-keys/${keyId}/audit?page=2&limit=2`, { headers: internal() });
    const body = await res.json();
    expect(body.data.map((r: { requestId: string }) => r.requestId)).toEqual([ids[2], ids[1]]);
    expect(body.page).toEqual({ page: 2, limit: 2, total: 5, totalPages: 3, hasMore: true });
    expect(res.headers.get('Link')).toBe(
      `</v1/admin/b2b-keys/${keyId}/audit?page=3&limit=2>; rel="next", </v1/admin/b2b-keys/${keyId}/audit?page=1&limit=2>; rel="prev"`,
    );
    const capped = await (await h.app.request(`/v1/admin/b2b-keys/${keyId}/audit?limit=500`, { headers: internal() })).json();
    expect(capped.page.limit).toBe(100);
    expect(capped.warnings).toEqual(['limit capped at 100']);
    const past = await (await h.app.request(`/v1/admin/b2b-keys/${keyId}/audit?page=9`, { headers: internal() })).json();
    expect(past.data).toEqual([]);
  });

  it.each([
    ['since=yesterday', 'since'],
    ['until=2026-13-01', 'until'],
    ['since=2026-11-20T10:00:00Z&until=2026-11-20T09:00:00Z', 'until'],
    ['limit=0', 'limit'],
    ['page=x', 'page'],
    ['sort=asc', 'sort'],
  ])('when the query is %s then 400 invalid_parameter naming %s', async (query, parameter) => {
    h = authHarness();
    const { keyId } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    const res = await h.app.request(`/v1/admin/b2b-keys/${keyId}/audit?${query}`, { headers: internal() });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error).toBe('invalid_parameter');
    expect(body.message).toContain(parameter);
  });

  it('when the internal key reads an unknown key ID then 404, a malformed one 400 naming id, and a session caller gets 403', async () => {
    h = authHarness({ env: { CATALOG_INTERNAL_KEY: INTERNAL_KEY, CATALOG_SESSION_SECRET: SESSION_SECRET } });
    const { keyId } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    expect((await h.app.request('/v1/admin/b2b-keys/ZZZZZZZZ/audit', { headers: internal() })).status).toBe(404);
    const malformed = await h.app.request('/v1/admin/b2b-keys/not..valid/audit', { headers: internal() });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: 'invalid_parameter', message: expect.stringMatching(/^id /) });
    const cookie = signSessionCookie(SESSION_SECRET, { sub: 'u', exp: T0 / 1000 + 60 });
    expect((await h.app.request(`/v1/admin/b2b-keys/${keyId}/audit`, { headers: { Cookie: `${SESSION_COOKIE}=${cookie}` } })).status).toBe(403);
  });

  it('when the internal key sends POST to the audit route then 405 with Allow: GET, HEAD', async () => {
    h = authHarness();
    const { keyId } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    const res = await h.app.request(`/v1/admin/b2b-keys/${keyId}/audit`, { method: 'POST', headers: internal() });
    expect(res.status).toBe(405);
    expect(res.headers.get('Allow')).toBe('GET, HEAD');
  });
});

describe('retention', () => {
  it('when rows are older than the retention then the pruner deletes them and keeps the rest', async () => {
    h = authHarness();
    const { key } = h.keys.mint({ tenant: 'acme', tier: 'enterprise' });
    await traffic(h, key, 3);
    h.clock.now = T0 + 10 * DAY;
    await h.app.request('/v1/catalog/summary', { headers: bearer(key) });
    h.clock.now = T0 + 10 * DAY + 1;
    const pruner = createAuditPruner(h.state, { retentionDays: 5, clock: h.clock });
    expect(pruner.prune()).toBe(3);
    expect(auditRows(h.state).map((r) => r.route)).toEqual(['/v1/catalog/summary']);
  });

  it('when more rows than one batch are old then all of them are pruned', () => {
    h = authHarness();
    const insert = h.state.sqlite.prepare(`INSERT INTO audit_log (api_key_id, tenant_name, route, status, ts_ms, timestamp, request_id, path, bytes, duration_ms, snapshot_id)
      VALUES ('k', 't', '/r', 200, ?, 'x', 'r', '/p', NULL, 1, NULL)`);
    h.state.sqlite.transaction(() => { for (let i = 0; i < 12_001; i++) insert.run(T0 - 100 * DAY); })();
    insert.run(T0);
    expect(createAuditPruner(h.state, { retentionDays: 90, clock: h.clock }).prune()).toBe(12_001);
    expect(auditRows(h.state)).toHaveLength(1);
  });

  it('when retention is started then it prunes at once, and stop ends the timer', async () => {
    h = authHarness();
    const { key } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    await traffic(h, key, 2);
    h.clock.now = T0 + 91 * DAY;
    const retention = startAuditRetention({ state: h.state, retentionDays: 90, clock: h.clock, intervalMs: 60_000 });
    expect(auditRows(h.state)).toHaveLength(0);
    retention.stop();
  });
});
