/**
 * The fleet state (proxy/state/fleet) against real Redis and PostgreSQL servers started by
 * scripts/servers/{redis,postgres}.sh: exact limits across processes, count and audit entry in one
 * script, the drainer's idempotent move, concurrent migrations, and refusing (not guessing) when
 * Redis is down.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../proxy/audit/row.js';
import { createRateLimiter, type RateDecision, windowStartOf } from '../../../proxy/limits/counter.js';
import { PG_MIGRATIONS } from '../../../proxy/state/fleet/migrations.js';
import { openStateDb } from '../../../proxy/state/open.js';
import {
  createAuditDrainer, createPostgresAuditPruner, createPostgresAuditReader, createRedisLimiter, fleetKeys, migratePostgres,
  openPostgres, openRedis, probeFleetState, type PgPool, type Redis,
} from '../../../proxy/state/fleet/index.js';
import { T0 } from '../../helpers/auth-fixtures.js';
import { buildFleetChild, runFleetChild } from '../../helpers/fleet-child.js';
import { freshDatabase, postgresPlan, redisPlan, type FleetServer } from '../../helpers/fleet-servers.js';
import { tempDir } from '../../helpers/auth-fixtures.js';

const redisServers = redisPlan();
const pgServers = postgresPlan();
const unavailable = redisServers.unavailable ?? pgServers.unavailable;
if (unavailable) console.warn(`fleet-state.test.ts: ${unavailable}`);
const suite = unavailable ? describe.skip : describe;

const LIMITS = { free: 600, standard: 5, enterprise: 6000 } as const;
const unique = () => `t${process.pid}-${randomBytes(4).toString('hex')}:`;

function entry(over: Partial<AuditEntry> = {}): AuditEntry {
  return {
    apiKeyId: 'Ab3dEf9h', tenantName: 'acme', route: '/v1/cards/:id', status: 200, timestampMs: T0, requestId: 'req-1',
    path: '/v1/cards/x', bytes: 512, durationMs: 3.4, snapshotId: '20261120T100000Z', ...over,
  };
}

suite('fleet state on real Redis and PostgreSQL', () => {
  let redisServer: FleetServer;
  let pgServer: FleetServer;
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let redis: Redis;
  let pg: PgPool;
  const tmp = tempDir('catalog-fleet-');
  let child: string;

  beforeAll(async () => {
    redisServer = redisServers.start();
    pgServer = pgServers.start();
    db = await freshDatabase(pgServer.url);
    redis = await openRedis(redisServer.url);
    pg = openPostgres(db.url);
    child = buildFleetChild(tmp.dir);
  });

  afterAll(async () => {
    redis?.disconnect();
    await pg?.end();
    await db?.drop();
    redisServer?.stop();
    pgServer?.stop();
    tmp.cleanup();
  });

  it('when three processes on separate connections hit one key with limit 600 then exactly 600 are admitted and every hit has its stream entry', async () => {
    const prefix = unique();
    const windowStart = windowStartOf(Date.now());
    const startAt = Date.now() + 1500;
    const results = await Promise.all(
      [0, 1, 2].map(() => runFleetChild<{ allowed: number }>(child, ['limit', redisServer.url, prefix, 'Ab3dEf9h', 2000, 600, windowStart, startAt])),
    );
    expect(results.reduce((n, r) => n + r.allowed, 0)).toBe(600);
    // Count and entry are one script: 6000 entries, 600 as answered, the rest rewritten as the 429.
    const keys = fleetKeys(prefix);
    expect(await redis.xlen(keys.stream)).toBe(6000);
    expect(await redis.get(keys.counter('Ab3dEf9h', windowStart))).toBe('6000');
    const statuses = new Map<string, number>();
    for (const [, fields] of await redis.xrange(keys.stream, '-', '+')) {
      const f = Object.fromEntries(fields.flatMap((v, i) => (i % 2 === 0 ? [[v, fields[i + 1]]] : [])));
      const shape = `${f.s} ${f.r} ${f.b} ${f.n}`;
      statuses.set(shape, (statuses.get(shape) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ '200 /v1/catalog/summary 10 s': 600, '429 (unmatched) 99 ': 5400 });
    await redis.del(keys.stream, keys.counter('Ab3dEf9h', windowStart));
  });

  it('when the same requests go through the Redis limiter and the SQLite limiter then every decision (and so every RateLimit header) is the same', async () => {
    const prefix = unique();
    // Half a minute into the next real window: Redis expires counters by its own clock, so the
    // test's clock must not lie in the past.
    const clock = { now: (windowStartOf(Date.now()) + 60) * 1000 + 30_000 };
    const sqlite = openStateDb(':memory:');
    const reference = createRateLimiter(sqlite, { limits: LIMITS, clock: () => clock.now });
    const limiter = createRedisLimiter(redis, { limits: LIMITS, clock: () => clock.now, keys: fleetKeys(prefix) });
    const seen: RateDecision[][] = [];
    const asked: number[][] = [];
    // Across a window boundary, with one request of the old window counted after the new one began.
    for (const [dt, windowOffset] of [[0, 0], [10_000, 0], [5_000, 0], [10_000, 0], [4_999, 0], [1, 0], [0, 0], [1, -60], [20_000, 0]]) {
      clock.now += dt;
      const windowStart = windowStartOf(clock.now) + windowOffset;
      seen.push([
        await limiter.hit({ keyId: 'Ab3dEf9h', tier: 'standard', windowStart }, entry(), (limit, resetSeconds) => {
          asked.push([limit, resetSeconds]);
          return { status: 429, bytes: 1000 + resetSeconds };
        }),
        reference.hit('Ab3dEf9h', 'standard', windowStart),
      ]);
    }
    sqlite.close();
    for (const [fleet, local] of seen) expect(fleet).toEqual(local);
    expect(seen.map(([d]) => d.allowed)).toContain(false);
    // The refusal was rendered from the figures the decision states, and the refused rows carry it.
    expect(asked).toEqual(seen.map(([d]) => [d.limit, d.resetSeconds]));
    const stored = (await redis.xrange(fleetKeys(prefix).stream, '-', '+')).map(([, f]) => `${f[f.indexOf('s') + 1]} ${f[f.indexOf('b') + 1]}`);
    expect(stored).toEqual(seen.map(([d]) => (d.allowed ? '200 512' : `429 ${1000 + d.resetSeconds}`)));
    await redis.del(fleetKeys(prefix).stream);
  });

  it('when migrations run from three processes at once on a fresh database then they are applied exactly once', async () => {
    const fresh = await freshDatabase(pgServer.url);
    try {
      const startAt = Date.now() + 1500;
      const results = await Promise.all([0, 1, 2].map(() => runFleetChild<{ applied: number[] }>(child, ['migrate', fresh.url, startAt])));
      // Every version once, all by one process (whichever took the lock first).
      const versions = PG_MIGRATIONS.map((m) => m.version);
      expect(results.map((r) => r.applied).sort()).toEqual([[], [], versions]);
      const check = openPostgres(fresh.url);
      const { rows } = await check.query('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows).toEqual(versions.map((version) => ({ version })));
      expect(await migratePostgres(check)).toEqual([]);
      await check.end();
    } finally {
      await fresh.drop();
    }
  });

  it('when a drainer dies after its commit and before its XACK then another drainer re-delivers the batch without duplicates', async () => {
    await migratePostgres(pg);
    const prefix = unique();
    const keys = fleetKeys(prefix);
    const limiter = createRedisLimiter(redis, { limits: LIMITS, keys });
    const n = 1234;
    for (let i = 0; i < n; i++) await limiter.record(entry({ requestId: `crash-${prefix}-${i}`, timestampMs: T0 + i }));
    // The child commits its first batch of 500, then SIGKILLs itself: 500 rows, 500 pending entries.
    await expect(runFleetChild(child, ['drain', redisServer.url, db.url, prefix, 'host-a', 1])).rejects.toThrow(/child exited null/);
    const countRows = async () => Number((await pg.query(`SELECT count(*) AS n FROM audit_log WHERE request_id LIKE $1`, [`crash-${prefix}-%`])).rows[0].n);
    expect(await countRows()).toBe(500);
    expect(((await redis.xpending(keys.stream, keys.group)) as [number])[0]).toBe(500);
    // A live drainer claims what host-a left (idle past claimIdleMs), then reads the rest.
    const drainer = createAuditDrainer({ redis, pg, consumer: 'host-b', keys, claimIdleMs: 0 });
    let moved = 0;
    for (let m; (m = await drainer.drainOnce()) > 0; ) moved += m;
    expect(moved).toBe(n);
    expect(await countRows()).toBe(n);
    const { rows } = await pg.query(`SELECT count(DISTINCT request_id) AS d FROM audit_log WHERE request_id LIKE $1`, [`crash-${prefix}-%`]);
    expect(Number(rows[0].d)).toBe(n);
    expect(((await redis.xpending(keys.stream, keys.group)) as [number])[0]).toBe(0);
    // Acknowledged entries are trimmed: at most the newest stays as the floor.
    expect(await redis.xlen(keys.stream)).toBeLessThanOrEqual(1);
    await redis.del(keys.stream);
  });

  it('when two drainers run at once then every entry is moved once', async () => {
    await migratePostgres(pg);
    const prefix = unique();
    const keys = fleetKeys(prefix);
    const limiter = createRedisLimiter(redis, { limits: LIMITS, keys });
    for (let i = 0; i < 3000; i += 100) {
      await Promise.all(Array.from({ length: 100 }, (_, j) => limiter.record(entry({ requestId: `pair-${prefix}-${i + j}` }))));
    }
    const [a, b] = ['a', 'b'].map((consumer) => createAuditDrainer({ redis, pg, consumer, keys, batch: 200 }));
    const drainAll = async (d: typeof a) => {
      let moved = 0;
      for (let m; (m = await d.drainOnce()) > 0; ) moved += m;
      return moved;
    };
    const moved = await Promise.all([drainAll(a), drainAll(b)]);
    expect(moved[0] + moved[1]).toBe(3000);
    expect(Math.min(...moved)).toBeGreaterThan(0);
    const { rows } = await pg.query('SELECT count(*) AS n, count(DISTINCT request_id) AS d FROM audit_log WHERE request_id LIKE $1', [`pair-${prefix}-%`]);
    expect(rows[0]).toEqual({ n: '3000', d: '3000' });
    await redis.del(keys.stream);
  });

  it('when rows are drained then the PostgreSQL reader shows them newest first as the SQLite reader does, and retention prunes old ones', async () => {
    await migratePostgres(pg);
    const keys = fleetKeys(unique());
    const limiter = createRedisLimiter(redis, { limits: LIMITS, keys });
    const keyId = `R${randomBytes(4).toString('hex').slice(0, 7)}`;
    await limiter.record(entry({ apiKeyId: keyId, timestampMs: T0 - 100 * 86_400_000, requestId: 'old' }));
    await limiter.record(entry({ apiKeyId: keyId, timestampMs: T0, requestId: 'a', bytes: null, snapshotId: null }));
    await limiter.record(entry({ apiKeyId: keyId, timestampMs: T0 + 1000, requestId: 'b', durationMs: 7.6 }));
    await createAuditDrainer({ redis, pg, consumer: 'h', keys }).drainOnce();
    const reader = createPostgresAuditReader(pg);
    const all = await reader.list({ keyId, offset: 0, limit: 10 });
    expect(all.total).toBe(3);
    expect(all.rows.map((r) => r.requestId)).toEqual(['b', 'a', 'old']);
    expect(all.rows[1]).toEqual({
      apiKeyId: keyId, tenantName: 'acme', route: '/v1/cards/:id', status: 200, timestamp: new Date(T0).toISOString(),
      requestId: 'a', path: '/v1/cards/x', bytes: null, durationMs: 3, snapshotId: null,
    });
    expect(all.rows[0].durationMs).toBe(8);
    expect((await reader.list({ keyId, sinceMs: T0, untilMs: T0 + 1000, offset: 0, limit: 10 })).rows.map((r) => r.requestId)).toEqual(['a']);
    expect(await createPostgresAuditPruner(pg, { retentionDays: 90, clock: () => T0 }).prune()).toBeGreaterThanOrEqual(1);
    expect((await reader.list({ keyId, offset: 0, limit: 10 })).rows.map((r) => r.requestId)).toEqual(['b', 'a']);
    await redis.del(keys.stream);
  });

  it('when PostgreSQL is stopped then the drainer loop keeps the entries and moves them once it is back', async () => {
    const own = pgServers.start({ own: true });
    const ownPg = openPostgres(own.url);
    const keys = fleetKeys(unique());
    const errors: unknown[] = [];
    const drainer = createAuditDrainer({ redis, pg: ownPg, consumer: 'h', keys, blockMs: 100, onError: (e) => errors.push(e) });
    try {
      await migratePostgres(ownPg);
      const limiter = createRedisLimiter(redis, { limits: LIMITS, keys });
      own.halt();
      for (let i = 0; i < 50; i++) await limiter.record(entry({ requestId: `down-${i}` }));
      drainer.start();
      const deadline = Date.now() + 10_000;
      while (errors.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(errors[0]).toMatchObject({ code: 'unavailable', message: expect.stringMatching(/^PostgreSQL is unavailable/) });
      own.resume();
      const count = async () => Number((await ownPg.query('SELECT count(*) AS n FROM audit_log')).rows[0].n);
      let n = 0;
      while (n < 50 && Date.now() < deadline + 10_000) {
        n = await count().catch(() => 0);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(n).toBe(50);
      expect(((await redis.xpending(keys.stream, keys.group)) as [number])[0]).toBe(0);
    } finally {
      await drainer.stop();
      await ownPg.end();
      await redis.del(keys.stream);
      own.stop();
    }
  });

  it('when Redis is stopped then the limiter fails with unavailable at once, and the same client recovers when Redis is back', async () => {
    await migratePostgres(pg);
    const own = redisServers.start({ own: true });
    const client = await openRedis(own.url);
    try {
      const limiter = createRedisLimiter(client, { limits: LIMITS });
      const count = { keyId: 'Ab3dEf9h', tier: 'free' as const, windowStart: windowStartOf(Date.now()) };
      const hit = () => limiter.hit(count, entry(), { status: 429, bytes: 100 });
      expect((await hit()).count).toBe(1);
      await probeFleetState(client, pg, 'test-host');
      own.halt();
      const started = Date.now();
      await expect(hit()).rejects.toMatchObject({ name: 'CatalogError', code: 'unavailable', status: 503, message: expect.stringMatching(/^Redis is unavailable/) });
      expect(Date.now() - started).toBeLessThan(2500);
      await expect(probeFleetState(client, pg, 'test-host')).rejects.toMatchObject({ code: 'unavailable' });
      own.resume();
      // The same client reconnects by itself (within its 500 ms retry step); the count went on
      // from the append-only file.
      const deadline = Date.now() + 5000;
      let decision;
      while (!decision) {
        decision = await hit().catch((e) => {
          if (Date.now() > deadline) throw e;
          return new Promise<undefined>((r) => setTimeout(r, 100));
        });
      }
      expect(decision.count).toBe(2);
      await probeFleetState(client, pg, 'test-host');
    } finally {
      client.disconnect();
      own.stop();
    }
  });
});
