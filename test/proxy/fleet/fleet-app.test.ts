/**
 * The proxy app on the fleet state (issue 18), through the front door, on real servers: refusing
 * (503 `unavailable` with Retry-After, /readyz not ready) while Redis is down and recovering by
 * itself when it is back; a revoke on one host refused on another within a second; and the CLI's
 * keys and audit commands on a postgres:// state, through the real entry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsSnapshotSource } from '../../../snapshots/store/fs.js';
import { bearer, internal, INTERNAL_KEY, tempDir } from '../../helpers/auth-fixtures.js';
import { runCli } from '../../helpers/cli.js';
import { writeFixtureSnapshot } from '../../helpers/snapshot-fixture.js';
import { fleetClock, fleetUnavailable, openFleetHost, openFleetWorld, pgAuditRows, uniquePrefix, type FleetWorld } from '../../helpers/state-harness.js';
import type { FleetServer } from '../../helpers/fleet-servers.js';

const suite = fleetUnavailable ? describe.skip : describe;
const CARD = '/v1/cards/mtg-lea-161';
const ENV = { CATALOG_INTERNAL_KEY: INTERNAL_KEY, CATALOG_TIER_LIMITS: 'free=1000' };

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs: number): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== null) return { value, ms: Date.now() - started };
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

suite('the proxy on the fleet state', () => {
  const tmp = tempDir('catalog-fleet-app-');
  let snapshots: ReturnType<typeof createFsSnapshotSource>;
  beforeAll(async () => {
    await writeFixtureSnapshot(`${tmp.dir}/snapshots`);
    snapshots = createFsSnapshotSource(`${tmp.dir}/snapshots`);
  });
  afterAll(() => tmp.cleanup());

  describe('when Redis stops (a private server)', () => {
    let world: FleetWorld & { redisServer: FleetServer };
    beforeAll(async () => {
      world = await openFleetWorld({ ownRedis: true });
    });
    afterAll(async () => {
      await world?.close();
    });

    it('then bearer requests get 503 unavailable with Retry-After and /readyz is not ready, and both recover without a restart', async () => {
      const host = await openFleetHost(world, { prefix: uniquePrefix(), clock: fleetClock(), env: ENV, snapshots });
      try {
        const key = await host.fleet.keys.mint({ tenant: 'acme', tier: 'free' });
        const ok = await host.app.request(CARD, { headers: bearer(key.key) });
        expect(ok.status).toBe(200);
        expect((await host.app.request('/readyz')).status).toBe(200);

        world.redisServer.halt();
        const refused = await host.app.request(CARD, { headers: bearer(key.key) });
        expect(refused.status).toBe(503);
        expect(refused.headers.get('Retry-After')).toBe('1');
        expect(refused.headers.get('RateLimit')).toBeNull();
        const body = await refused.json();
        expect(body).toMatchObject({ error: 'unavailable', requestId: refused.headers.get('X-Request-Id') });
        // The partner is not told which server or address failed.
        expect(body.message).not.toMatch(/redis|127\.0\.0\.1/i);
        expect((await host.app.request('/readyz')).status).toBe(503);

        world.redisServer.resume();
        const back = await until('a 200 after Redis came back', async () => {
          const res = await host.app.request(CARD, { headers: bearer(key.key) });
          return res.status === 200 ? res : null;
        }, 15_000);
        expect(back.value.headers.get('RateLimit-Policy')).toBe('"free";q=1000;w=60');
        await until('ready after Redis came back', async () => ((await host.app.request('/readyz')).status === 200 ? true : null), 15_000);
        // Every answered request has its row (the 503 has none: it was not answered), whichever came first.
        const rows = await pgAuditRows(host.fleet);
        expect(rows.filter((r) => r.api_key_id === key.keyId && r.status === 200).length).toBeGreaterThanOrEqual(2);
        expect(rows.some((r) => r.status === 503)).toBe(false);
      } finally {
        await host.fleet.close();
      }
    }, 60_000);
  });

  describe('with two hosts on the shared servers', () => {
    let world: FleetWorld;
    const prefix = uniquePrefix();
    beforeAll(async () => {
      world = await openFleetWorld();
    });
    afterAll(async () => {
      await world?.close();
    });

    it('when a key is revoked through the admin API of host A then host B answers 401 within a second, and both hosts\' rows are in PostgreSQL', async () => {
      const clock = fleetClock();
      const a = await openFleetHost(world, { prefix, clock, env: ENV, snapshots });
      const b = await openFleetHost(world, { prefix, clock, env: ENV, snapshots });
      try {
        const minted = await a.app.request('/v1/admin/b2b-keys', { method: 'POST', headers: { ...internal(), 'Content-Type': 'application/json' }, body: JSON.stringify({ tenant: 'acme' }) });
        expect(minted.status).toBe(201);
        const { key, keyId } = await minted.json();
        // B caches the key row on its first request.
        expect((await b.app.request(CARD, { headers: bearer(key) })).status).toBe(200);
        expect((await a.app.request(CARD, { headers: bearer(key) })).status).toBe(200);

        expect((await a.app.request(`/v1/admin/b2b-keys/${keyId}`, { method: 'DELETE', headers: internal() })).status).toBe(200);
        // B may still answer from its cache until the broadcast arrives: those answers are audited too.
        let servedBeforeRevokeArrived = 0;
        const refused = await until('401 on host B', async () => {
          const res = await b.app.request(CARD, { headers: bearer(key) });
          if (res.status === 200) servedBeforeRevokeArrived++;
          return res.status === 401 ? res : null;
        }, 1000);
        expect(refused.ms).toBeLessThan(1000);

        // Read on A: every row, B's included, each request once.
        const audit = await a.app.request(`/v1/admin/b2b-keys/${keyId}/audit`, { headers: internal() });
        const statuses = (await audit.json()).data.map((r: { status: number }) => r.status).sort();
        expect(statuses).toEqual([...Array(2 + servedBeforeRevokeArrived).fill(200), 401]);
      } finally {
        await a.fleet.close();
        await b.fleet.close();
      }
    });

    it('when the CLI mints, lists, rotates, revokes and lists audit rows on postgres:// then a running host sees the revoke within a second', async () => {
      const env = { CATALOG_STATE_URL: world.pgUrl, CATALOG_REDIS_URL: world.redisUrl, CATALOG_REDIS_PREFIX: prefix };
      const cli = (...args: string[]) => runCli(args, { env, timeoutMs: 30_000 });
      const mint = await cli('keys', 'mint', '--tenant', 'globex', '--tier', 'standard', '--json');
      expect(mint.stderr).toBe('');
      expect(mint.code).toBe(0);
      const minted = JSON.parse(mint.stdout);

      const host = await openFleetHost(world, { prefix, clock: fleetClock(), env: ENV, snapshots });
      try {
        expect((await host.app.request(CARD, { headers: bearer(minted.key) })).status).toBe(200);
        const list = await cli('keys', 'list', '--tenant', 'globex');
        expect(list.stdout).toMatch(new RegExp(`${minted.keyId}\\s+globex\\s+standard\\s+active`));

        // The row the host just wrote is listed: audit drains the stream first.
        const audit = await cli('audit', minted.keyId, '--json');
        expect(audit.code).toBe(0);
        expect(audit.stdout.trim().split('\n').map((l) => JSON.parse(l))).toMatchObject([{ apiKeyId: minted.keyId, status: 200, route: '/v1/cards/:id' }]);

        const rotate = await cli('keys', 'rotate', minted.keyId, '--json');
        expect(rotate.code).toBe(0);
        const successor = JSON.parse(rotate.stdout);
        await until('401 for the rotated key', async () => ((await host.app.request(CARD, { headers: bearer(minted.key) })).status === 401 ? true : null), 1000);
        expect((await host.app.request(CARD, { headers: bearer(successor.key) })).status).toBe(200);

        const revoke = await cli('keys', 'revoke', successor.keyId);
        expect(revoke.stdout).toContain(`Revoked key ${successor.keyId}`);
        const refused = await until('401 after the CLI revoke', async () => ((await host.app.request(CARD, { headers: bearer(successor.key) })).status === 401 ? true : null), 1000);
        expect(refused.ms).toBeLessThan(1000);
      } finally {
        await host.fleet.close();
      }
    });

    it('when revoke runs on postgres:// without Redis then it is a usage error saying why, and nothing is revoked', async () => {
      const env = { CATALOG_STATE_URL: world.pgUrl, CATALOG_REDIS_URL: '', CATALOG_REDIS_PREFIX: prefix };
      const mint = await runCli(['keys', 'mint', '--tenant', 'initech', '--json'], { env });
      const { keyId } = JSON.parse(mint.stdout);
      const revoke = await runCli(['keys', 'revoke', keyId], { env });
      expect(revoke.code).toBe(64);
      expect(revoke.stderr).toContain('need --redis');
      expect((await runCli(['keys', 'list', '--tenant', 'initech'], { env })).stdout).toContain('active');
    });

    it('when serve is given a postgres:// state without Redis then it is a usage error naming --redis', async () => {
      const run = await runCli(['serve', '--snapshots', `${tmp.dir}/snapshots`, '--state', world.pgUrl, '--port', '0', '--workers', '1'], { env: { CATALOG_REDIS_URL: '' }, timeoutMs: 20_000 });
      expect(run.code).toBe(64);
      expect(run.stderr).toContain('--redis');
    });
  });
});
