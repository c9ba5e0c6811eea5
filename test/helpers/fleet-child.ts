/**
 * The fleet state's code in separate Node processes (separate connections, as separate hosts):
 *   limit   <redisUrl> <prefix> <keyId> <hits> <limit> <windowStart> <startAt>  → { allowed }
 *   migrate <pgUrl> <startAt>                                                  → { applied }
 *   drain   <redisUrl> <pgUrl> <prefix> <consumer> <crashAfterCommit 0|1>      → { drained }
 * With crashAfterCommit the drainer SIGKILLs itself after its first commit, before the XACK.
 */
import { buildChild, runChild } from './state-child.js';

const CHILD = `
import { openRedis } from './proxy/state/fleet/redis.js';
import { openPostgres } from './proxy/state/fleet/postgres.js';
import { migratePostgres } from './proxy/state/fleet/migrate.js';
import { fleetKeys } from './proxy/state/fleet/keys.js';
import { createRedisLimiter } from './proxy/state/fleet/limiter.js';
import { createAuditDrainer } from './proxy/state/fleet/drainer.js';
const [mode, ...a] = process.argv.slice(2);
// Every child starts at the same instant, so their commands interleave.
const startTogether = async (at) => { while (Date.now() < Number(at)) await new Promise((r) => setTimeout(r, 1)); };
let result;
if (mode === 'limit') {
  const [url, prefix, keyId, hits, limit, windowStart, startAt] = a;
  const redis = await openRedis(url);
  const limiter = createRedisLimiter(redis, { limits: { free: Number(limit), standard: 1, enterprise: 1 }, keys: fleetKeys(prefix) });
  const entry = { apiKeyId: keyId, tenantName: 'acme', route: '/v1/catalog/summary', status: 200, timestampMs: Date.now(),
    requestId: 'r', path: '/v1/catalog/summary', bytes: 10, durationMs: 1, snapshotId: 's' };
  await startTogether(startAt);
  // 50 in flight per process: pipelined like a busy host, not one round trip at a time.
  let allowed = 0;
  for (let i = 0; i < Number(hits); i += 50) {
    const batch = Array.from({ length: Math.min(50, Number(hits) - i) }, () =>
      limiter.hit({ keyId, tier: 'free', windowStart: Number(windowStart) }, entry, { status: 429, bytes: 99 }));
    for (const d of await Promise.all(batch)) if (d.allowed) allowed++;
  }
  redis.disconnect();
  result = { allowed };
} else if (mode === 'migrate') {
  const [url, startAt] = a;
  const pg = openPostgres(url, { max: 1 });
  await startTogether(startAt);
  const applied = await migratePostgres(pg);
  await pg.end();
  result = { applied };
} else if (mode === 'drain') {
  const [redisUrl, pgUrl, prefix, consumer, crash] = a;
  const redis = await openRedis(redisUrl);
  const pg = openPostgres(pgUrl, { max: 1 });
  const drainer = createAuditDrainer({ redis, pg, consumer, keys: fleetKeys(prefix), batch: 500,
    onCommitted: () => { if (crash === '1') process.kill(process.pid, 'SIGKILL'); } });
  let drained = 0;
  for (let n; (n = await drainer.drainOnce()) > 0; ) drained += n;
  redis.disconnect();
  await pg.end();
  result = { drained };
}
process.stdout.write(JSON.stringify(result));
`;

export function buildFleetChild(dir: string): string {
  return buildChild(dir, ['proxy/state/fleet/index.ts'], CHILD);
}

export const runFleetChild = <T>(script: string, args: (string | number)[]) => runChild<T>(script, args);
