/**
 * The per-request log line (proxy/ops/request-telemetry.ts) through the real app, and its pino
 * rendering (cli/log.ts): one line per request, the route pattern and never the raw path, the key
 * by ID and tenant and never the key itself.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCliLogger, parseLogLevel } from '../../cli/log.js';
import type { CliIO } from '../../cli/io.js';
import { pinoProxyLogger } from '../../proxy/logger.js';
import { createFsSnapshotSource } from '../../snapshots/store/fs.js';
import { authHarness, bearer, INTERNAL_KEY, internal, tempDir, type AuthHarness } from '../helpers/auth-fixtures.js';
import { FIXTURE_CARD_IDS, writeFixtureSnapshot, type FixtureSnapshot } from '../helpers/snapshot-fixture.js';

const tmp = tempDir('catalog-request-log-');
let fixture: FixtureSnapshot;
let h: AuthHarness;

beforeAll(async () => {
  fixture = await writeFixtureSnapshot(join(tmp.dir, 'snapshots'));
});
afterAll(() => tmp.cleanup());
afterEach(() => h?.close());

const harness = () => authHarness({ snapshots: createFsSnapshotSource(fixture.root), env: { CATALOG_INTERNAL_KEY: INTERNAL_KEY } });
const requestLines = (x: AuthHarness) => x.logs.filter((l) => l.message === 'request');

describe('the request log line', () => {
  it('when a partner reads a card then exactly one line names the route pattern, status, bytes, key ID, tenant and snapshot, and not the key', async () => {
    h = harness();
    const minted = h.keys.mint({ tenant: 'acme', tier: 'standard' });
    const res = await h.app.request(`/v1/cards/${FIXTURE_CARD_IDS[0]}?range=3mo`, { headers: { ...bearer(minted.key), 'Accept-Encoding': 'gzip' } });
    expect(res.status).toBe(200);
    const body = Buffer.from(await res.arrayBuffer());

    expect(h.logs).toHaveLength(1);
    const [line] = h.logs;
    expect(line.level).toBe('info');
    expect(line.message).toBe('request');
    expect(Object.keys(line.fields)).toEqual(['requestId', 'method', 'route', 'status', 'bytes', 'durationMs', 'keyId', 'tenant', 'snapshotId']);
    expect(line.fields).toEqual({
      requestId: res.headers.get('X-Request-Id'),
      method: 'GET',
      route: '/v1/cards/:id',
      status: 200,
      bytes: body.length,
      durationMs: expect.any(Number),
      keyId: minted.keyId,
      tenant: 'acme',
      snapshotId: fixture.id,
    });
    expect(line.fields.durationMs as number).toBeGreaterThanOrEqual(0);
    const text = JSON.stringify(h.logs);
    expect(text).not.toContain(minted.key);
    expect(text).not.toContain(FIXTURE_CARD_IDS[0]); // the pattern, not the path
    expect(text).not.toContain('3mo'); // nor the query
  });

  it('when no credential is sent then the 401 line has no key and names the route the path aimed at', async () => {
    h = harness();
    const res = await h.app.request(`/v1/cards/${FIXTURE_CARD_IDS[0]}`);
    expect(res.status).toBe(401);
    expect(requestLines(h)).toEqual([{
      level: 'info',
      message: 'request',
      fields: expect.objectContaining({ route: '/v1/cards/:id', status: 401, keyId: null, tenant: null, snapshotId: null }),
    }]);
  });

  it('when the path matches no route then the line says (unmatched), not the path', async () => {
    h = harness();
    const minted = h.keys.mint({ tenant: 'acme', tier: 'standard' });
    expect((await h.app.request('/v1/no-such/thing-42', { headers: bearer(minted.key) })).status).toBe(404);
    expect((await h.app.request('/wp-login.php')).status).toBe(404);
    expect(requestLines(h).map((l) => [l.fields.route, l.fields.status])).toEqual([['(unmatched)', 404], ['(unmatched)', 404]]);
    expect(JSON.stringify(h.logs)).not.toMatch(/thing-42|wp-login/);
  });

  it('when a revoked key is sent then the 401 line names that key by ID and tenant, never the key', async () => {
    h = harness();
    const minted = h.keys.mint({ tenant: 'globex', tier: 'free' });
    h.keys.revoke(minted.keyId);
    const res = await h.app.request('/v1/catalog/summary', { headers: bearer(minted.key) });
    expect(res.status).toBe(401);
    expect(requestLines(h)[0].fields).toMatchObject({ status: 401, keyId: minted.keyId, tenant: 'globex' });
    expect(JSON.stringify(h.logs)).not.toContain(minted.key);
  });

  it('when the internal key calls the admin API then the line carries neither the internal key nor the minted key', async () => {
    h = harness();
    const res = await h.app.request('/v1/admin/b2b-keys', {
      method: 'POST',
      headers: { ...internal(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ tenant: 'initech', tier: 'free' }),
    });
    expect(res.status).toBe(201);
    const minted = (await res.json()) as { key: string };
    expect(requestLines(h)).toHaveLength(1);
    expect(requestLines(h)[0].fields).toMatchObject({ method: 'POST', route: '/v1/admin/b2b-keys', status: 201, keyId: null });
    const text = JSON.stringify(h.logs);
    expect(text).not.toContain(INTERNAL_KEY);
    expect(text).not.toContain(minted.key);
  });

  it('when rate limited then the 429 has its own line with the key ID', async () => {
    h = authHarness({ snapshots: createFsSnapshotSource(fixture.root), env: { CATALOG_TIER_LIMITS: 'free=1' } });
    const minted = h.keys.mint({ tenant: 'acme', tier: 'free' });
    expect((await h.app.request('/v1/catalog/summary', { headers: bearer(minted.key) })).status).toBe(200);
    expect((await h.app.request('/v1/catalog/summary', { headers: bearer(minted.key) })).status).toBe(429);
    expect(requestLines(h).map((l) => [l.fields.status, l.fields.keyId])).toEqual([[200, minted.keyId], [429, minted.keyId]]);
  });
});

describe('rendered by pino', () => {
  function fakeIO(tty: boolean, env: NodeJS.ProcessEnv = {}): CliIO & { err: string[] } {
    const err: string[] = [];
    return { err, env, stdout: { write: () => true, isTTY: tty }, stderr: { write: (s: string) => err.push(s), isTTY: tty } };
  }

  it('when stderr is not a terminal then each request is one JSON line with level, time and the fields', async () => {
    const io = fakeIO(false);
    const logger = pinoProxyLogger(createCliLogger(io, 'info'));
    logger.info('request', { requestId: 'r-1', method: 'GET', route: '/v1/cards/:id', status: 200, bytes: 812, durationMs: 0.42, keyId: 'AbCd1234', tenant: 'acme', snapshotId: 's' });
    expect(io.err).toHaveLength(1);
    expect(io.err[0].endsWith('\n')).toBe(true);
    const parsed = JSON.parse(io.err[0]);
    expect(parsed).toMatchObject({ level: 'info', msg: 'request', route: '/v1/cards/:id', status: 200, keyId: 'AbCd1234', pid: process.pid });
    expect(new Date(parsed.time).toISOString()).toBe(parsed.time);
  });

  it('when stderr is a terminal then the line is for people, not JSON', () => {
    const io = fakeIO(true);
    pinoProxyLogger(createCliLogger(io, 'info')).info('request', { route: '/v1/cards/:id', status: 200 });
    expect(io.err.join('')).toContain('request');
    expect(io.err.join('')).toContain('/v1/cards/:id');
    expect(() => JSON.parse(io.err[0])).toThrow();
  });

  it('when CATALOG_LOG_LEVEL=warn then request lines are dropped and errors kept; a bad level is refused by name', () => {
    const io = fakeIO(false);
    const logger = pinoProxyLogger(createCliLogger(io, parseLogLevel({ CATALOG_LOG_LEVEL: 'warn' })));
    logger.info('request', { status: 200 });
    logger.error('request failed', { requestId: 'r-2' });
    expect(io.err.map((l) => JSON.parse(l).msg)).toEqual(['request failed']);
    expect(parseLogLevel({})).toBe('info');
    expect(() => parseLogLevel({ CATALOG_LOG_LEVEL: 'loud' })).toThrow(/CATALOG_LOG_LEVEL/);
  });
});
