/**
 * The fleet's key store in PostgreSQL with each host's cache and the revocation broadcast over
 * Redis pub/sub, against real servers (scripts/servers/{redis,postgres}.sh): two hosts, each with
 * its own connections, cache and subscriber.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCatalogError } from '../../../snapshots/errors.js';
import { isKeyFormat } from '../../../proxy/keys/format.js';
import {
  createKeyCache, createPostgresKeyStore, fleetKeys, listenKeyChanges, migratePostgres, openPostgres, openRedis,
  publishKeyChange, type AsyncKeyStore, type PgPool, type Redis, type StoredKey,
} from '../../../proxy/state/fleet/index.js';
import { freshDatabase, postgresPlan, redisPlan, type FleetServer } from '../../helpers/fleet-servers.js';

const redisServers = redisPlan();
const pgServers = postgresPlan();
const unavailable = redisServers.unavailable ?? pgServers.unavailable;
if (unavailable) console.warn(`fleet-keys.test.ts: ${unavailable}`);
const suite = unavailable ? describe.skip : describe;

interface Host {
  keys: AsyncKeyStore;
  close(): Promise<void>;
}

suite('fleet key store and revocation broadcast', () => {
  let redisServer: FleetServer;
  let pgServer: FleetServer;
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  const hosts: Host[] = [];
  const prefix = `k${process.pid}-${randomBytes(4).toString('hex')}:`;

  async function host(): Promise<Host> {
    const pg: PgPool = openPostgres(db.url, { max: 2 });
    const redis: Redis = await openRedis(redisServer.url);
    const subscriber: Redis = await openRedis(redisServer.url);
    const keys = fleetKeys(prefix);
    // A long max age: only the broadcast can make a revoke show within the test's second.
    const cache = createKeyCache<StoredKey>({ maxAgeMs: 600_000 });
    const listener = await listenKeyChanges(subscriber, { keys, onChange: (id) => cache.invalidate(id), onResync: () => cache.clear() });
    const h = {
      keys: createPostgresKeyStore(pg, { cache, announce: (id) => publishKeyChange(redis, id, keys) }),
      async close() {
        await listener.close();
        redis.disconnect();
        await pg.end();
      },
    };
    hosts.push(h);
    return h;
  }

  beforeAll(async () => {
    redisServer = redisServers.start();
    pgServer = pgServers.start();
    db = await freshDatabase(pgServer.url);
    const pg = openPostgres(db.url);
    await migratePostgres(pg);
    await pg.end();
  });

  afterAll(async () => {
    for (const h of hosts) await h.close();
    await db?.drop();
    redisServer?.stop();
    pgServer?.stop();
  });

  async function within(ms: number, ok: () => Promise<boolean>): Promise<number> {
    const started = Date.now();
    while (!(await ok())) {
      if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 5));
    }
    return Date.now() - started;
  }

  it('when a key is minted, listed, revoked and rotated then the answers have the shapes of the SQLite store', async () => {
    const a = await host();
    const minted = await a.keys.mint({ tenant: 'acme', tier: 'standard', expiresAt: '2099-01-01T00:00:00.000Z' });
    expect(isKeyFormat(minted.key)).toBe(true);
    expect(await a.keys.check(minted.key)).toEqual({ ok: true, key: { keyId: minted.keyId, tenant: 'acme', tier: 'standard', createdAt: minted.createdAt, expiresAt: '2099-01-01T00:00:00.000Z', revokedAt: null, replacedBy: null } });
    expect(await a.keys.check(`${minted.key.slice(0, -1)}${minted.key.endsWith('A') ? 'B' : 'A'}`)).toEqual({ ok: false, reason: 'unknown' });
    expect(await a.keys.check('nonsense')).toEqual({ ok: false, reason: 'malformed' });
    expect((await a.keys.list({ tenant: 'acme' })).map((k) => k.keyId)).toContain(minted.keyId);
    const { minted: next, revoked } = await a.keys.rotate(minted.keyId);
    expect(revoked).toMatchObject({ keyId: minted.keyId, replacedBy: next.keyId });
    expect(revoked.revokedAt).not.toBeNull();
    const again = await a.keys.rotate(minted.keyId).catch((e: unknown) => e);
    expect(isCatalogError(again) && again.code).toBe('invalid_parameter');
    const expired = await a.keys.mint({ tenant: 'acme', tier: 'free', expiresAt: '2020-01-01T00:00:00.000Z' });
    expect(await a.keys.check(expired.key)).toMatchObject({ ok: false, reason: 'expired', key: { keyId: expired.keyId } });
    const missing = await a.keys.revoke('Zz9Zz9Zz').catch((e: unknown) => e);
    expect(isCatalogError(missing) && missing.code).toBe('not_found');
  });

  it('when a key is revoked on one host then every other host refuses it within a second, though it had cached the key', async () => {
    const [a, b, c] = [await host(), await host(), await host()];
    const { key, keyId } = await a.keys.mint({ tenant: 'acme', tier: 'free' });
    expect((await b.keys.check(key)).ok).toBe(true);
    expect((await c.keys.check(key)).ok).toBe(true);
    await a.keys.revoke(keyId);
    const refused = async (h: Host) => (await h.keys.check(key)).ok === false;
    const took = await Promise.all([b, c].map((h) => within(1000, () => refused(h))));
    expect(Math.max(...took)).toBeLessThan(1000);
    expect(await b.keys.check(key)).toMatchObject({ ok: false, reason: 'revoked' });
  });

  it('when Redis is down during a revoke then the revoke is committed and the error says the hosts were not told', async () => {
    const own = redisServers.start({ own: true });
    const pg = openPostgres(db.url, { max: 1 });
    const redis = await openRedis(own.url);
    try {
      const keys = createPostgresKeyStore(pg, { announce: (id) => publishKeyChange(redis, id) });
      const { keyId } = await keys.mint({ tenant: 'acme', tier: 'free' });
      own.halt();
      await expect(keys.revoke(keyId)).rejects.toMatchObject({ code: 'unavailable', message: expect.stringMatching(new RegExp(`^key ${keyId} is revoked in PostgreSQL, but the hosts could not be told .*run the revoke again once Redis answers$`)) });
      expect((await keys.get(keyId))?.revokedAt).not.toBeNull();
    } finally {
      redis.disconnect();
      await pg.end();
      own.stop();
    }
  });

  it('when a load races a revocation then the stale row is not cached', async () => {
    const cache = createKeyCache<string>({ maxAgeMs: 600_000 });
    let release!: (v: string) => void;
    const loading = cache.get('k', () => new Promise((r) => (release = r)));
    cache.invalidate('k');
    release('stale');
    expect(await loading).toBe('stale');
    expect(await cache.get('k', async () => 'fresh')).toBe('fresh');
    expect(await cache.get('k', async () => 'not read')).toBe('fresh');
  });
});
