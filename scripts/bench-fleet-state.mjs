#!/usr/bin/env node
// The fleet state's costs (`npm run bench:fleet`), on servers this script starts in temp state
// folders with scripts/servers/{redis,postgres}.sh and stops after:
// - the limiter's Lua script (INCR + EXPIREAT + XADD of the audit entry) per second, with Redis's
//   append-only file at `appendfsync always` (the entry is on disk before the reply) and `everysec`
//   (up to a second of entries lost with the machine); one at a time (latency) and 64 in flight;
// - a PostgreSQL audit INSERT committed per request (the other way to make a row durable before
//   the answer): commit latency one at a time, and rows/s at 16 in flight (commits group);
// - the drainer: stream entries moved into PostgreSQL per second (batches of 500);
// - the revocation broadcast: publish to message in another connection's subscriber.
// Settings: FLEET_HITS (script calls per run, 20000), FLEET_ROWS (inserts, 2000), FLEET_DRAIN (50000).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAuditDrainer, createRedisLimiter, fleetKeys, listenKeyChanges, migratePostgres, openPostgres, openRedis, publishKeyChange } from '../dist/proxy/state/fleet/index.js';
import { machineLine } from './lib/machine.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const num = (name, dflt) => {
  const v = Number(process.env[name] ?? dflt);
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a whole number >= 1`);
  return v;
};
const HITS = num('FLEET_HITS', 20000);
const ROWS = num('FLEET_ROWS', 2000);
const DRAIN = num('FLEET_DRAIN', 50000);
const LIMITS = { free: 1e9, standard: 1e9, enterprise: 1e9 };

const started = [];
function server(name, env = {}) {
  const state = mkdtempSync(join(tmpdir(), `bench-fleet-${name}-`));
  const script = join(ROOT, 'scripts', 'servers', `${name}.sh`);
  const e = { ...process.env, ...env, [name === 'redis' ? 'REDIS_STATE' : 'PG_STATE']: state };
  execFileSync('bash', [script, 'start'], { env: e, stdio: ['ignore', 'ignore', 'inherit'] });
  started.push(() => {
    execFileSync('bash', [script, 'stop'], { env: e, stdio: 'ignore' });
    rmSync(state, { recursive: true, force: true });
  });
  return execFileSync('bash', [script, 'env'], { env: e, encoding: 'utf8' }).trim().replace(/^export [A-Z_]+=/, '');
}

const entry = (i) => ({ apiKeyId: 'Ab3dEf9h', tenantName: 'acme', route: '/v1/cards/:id', status: 200, timestampMs: Date.now(),
  requestId: `req-${i}`, path: '/v1/cards/some-card', bytes: 2048, durationMs: 2, snapshotId: '20261125T120000Z' });
const ms = (ns) => Number(ns) / 1e6;
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Runs `op(i)` count times with `inFlight` at once; returns calls/s and the p50/p99 latency in ms. */
async function measure(count, inFlight, op) {
  const lat = [];
  let next = 0;
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < count) {
      const i = next++;
      const t = process.hrtime.bigint();
      await op(i);
      lat.push(ms(process.hrtime.bigint() - t));
    }
  }));
  const seconds = ms(process.hrtime.bigint() - t0) / 1000;
  lat.sort((a, b) => a - b);
  return { perSecond: Math.round(count / seconds), p50: pct(lat, 50).toFixed(2), p99: pct(lat, 99).toFixed(2) };
}

const rows = [];
const report = (what, r) => {
  rows.push(`| ${what} | ${r.perSecond} | ${r.p50} | ${r.p99} |`);
  console.error(`${what}: ${r.perSecond}/s, p50 ${r.p50} ms, p99 ${r.p99} ms`);
};

try {
  console.log(machineLine());
  for (const fsync of ['always', 'everysec']) {
    const redis = await openRedis(server('redis', { REDIS_APPENDFSYNC: fsync }));
    const limiter = createRedisLimiter(redis, { limits: LIMITS, keys: fleetKeys('bench:') });
    const windowStart = Math.floor(Date.now() / 60000) * 60;
    const hit = (i) => limiter.hit({ keyId: 'Ab3dEf9h', tier: 'free', windowStart }, entry(i), { status: 429, bytes: 100 });
    await measure(1000, 16, hit); // warm-up: script loaded, JIT
    report(`limiter script, appendfsync ${fsync}, 1 in flight`, await measure(Math.min(HITS, 5000), 1, hit));
    report(`limiter script, appendfsync ${fsync}, 64 in flight`, await measure(HITS, 64, hit));
    redis.disconnect();
  }

  const pgUrl = server('postgres');
  const pg = openPostgres(pgUrl, { max: 16 });
  await migratePostgres(pg);
  const insert = (i) => pg.query(`INSERT INTO audit_log (stream_id, api_key_id, tenant_name, route, status, at, request_id, path, bytes, duration_ms, snapshot_id)
    VALUES ($1, 'Ab3dEf9h', 'acme', '/v1/cards/:id', 200, now(), $2, '/v1/cards/x', 2048, 2, 's')`, [`bench-${process.hrtime.bigint()}-${i}`, `req-${i}`]);
  await measure(200, 4, insert);
  report('PostgreSQL audit INSERT + commit, 1 in flight', await measure(ROWS, 1, insert));
  report('PostgreSQL audit INSERT + commit, 16 in flight', await measure(ROWS * 4, 16, insert));

  const redis = await openRedis(server('redis', { REDIS_APPENDFSYNC: 'everysec' }));
  const keys = fleetKeys('drain:');
  const limiter = createRedisLimiter(redis, { limits: LIMITS, keys });
  await measure(DRAIN, 64, (i) => limiter.record(entry(i)));
  const drainer = createAuditDrainer({ redis, pg, consumer: 'bench', keys, batch: 500 });
  const t0 = process.hrtime.bigint();
  let moved = 0;
  for (let n; (n = await drainer.drainOnce()) > 0; ) moved += n;
  const seconds = ms(process.hrtime.bigint() - t0) / 1000;
  rows.push(`| drainer, batches of 500 (stream → PostgreSQL, XACK, trim) | ${Math.round(moved / seconds)} rows/s | | |`);
  console.error(`drainer: ${moved} rows in ${seconds.toFixed(2)} s`);

  const subscriber = await openRedis(redis.options.host ? `redis://${redis.options.host}:${redis.options.port}` : '');
  let sentAt = 0n;
  let resolveSeen;
  const listener = await listenKeyChanges(subscriber, { keys, onChange: () => resolveSeen(ms(process.hrtime.bigint() - sentAt)), onResync: () => {} });
  const delivery = [];
  for (let i = 0; i < 500; i++) {
    const seen = new Promise((r) => (resolveSeen = r));
    sentAt = process.hrtime.bigint();
    await publishKeyChange(redis, 'Ab3dEf9h', keys);
    delivery.push(await seen);
  }
  delivery.sort((a, b) => a - b);
  rows.push(`| revocation broadcast: publish → another connection's subscriber | | ${pct(delivery, 50).toFixed(2)} | ${pct(delivery, 99).toFixed(2)} |`);
  await listener.close();
  redis.disconnect();
  await pg.end();

  console.log('\n| operation | per second | p50 ms | p99 ms |\n|---|---|---|---|');
  console.log(rows.join('\n'));
} finally {
  for (const stop of started.reverse()) stop();
}
