/**
 * The local fleet of scripts/fleet.sh for the multi-process fleet tests (test/fleet/): three real
 * `catalog serve` hosts, nginx in front, a Redis of the fleet's own (started by the script under the
 * fleet's state folder, so a test may stop and start it) and a fresh database on the PostgreSQL the
 * other fleet tests use (fleet-servers.ts: the checkout's running one, else a private one), so no
 * test waits for an initdb of its own.
 *
 * `fleetUnavailable()` says, when the test file loads, why the fleet cannot run here (a server that
 * is not installed), so the suite is skipped with that message; with CI set it throws instead.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, tempDir } from './cli.js';
import { runCli } from './server-process.js';
import { freshDatabase, postgresPlan, redisPlan, type FleetServer } from './fleet-servers.js';
import { findNginx, nginxRequired } from './nginx.js';

const FLEET_SH = join(REPO, 'scripts', 'fleet.sh');
const REDIS_SH = join(REPO, 'scripts', 'servers', 'redis.sh');

export function fleetUnavailable(): string | null {
  // The plans throw themselves under CI when their server is missing.
  const reason = redisPlan().unavailable ?? postgresPlan().unavailable;
  if (reason !== null) return reason;
  if (findNginx() !== null) return null;
  const missing = 'nginx is not installed (bash scripts/servers/install-nginx.sh), so the fleet tests are skipped';
  if (nginxRequired()) throw new Error(`this run requires nginx (CI or CATALOG_REQUIRE_NGINX=1) but ${missing}`);
  return missing;
}

export interface LocalFleet {
  /** nginx, the load balancer. */
  url: string;
  /** host-1, host-2, host-3, in that order. */
  hosts: string[];
  stateUrl: string;
  redisUrl: string;
  internalKey: string;
  /** The folder scripts/fleet.sh keeps its PIDs, logs and servers in. */
  dir: string;
  hostPid(n: number): number;
  /** kill -9 of a whole host (its process group: fleet.sh starts each host with setsid). */
  killHost(n: number): void;
  /** Stops / starts the fleet's Redis through scripts/servers/redis.sh (same port again). */
  stopRedis(): void;
  startRedis(): void;
  /** A key minted by the real CLI against the fleet's PostgreSQL. */
  mint(tier: 'free' | 'standard' | 'enterprise', tenant?: string): { key: string; keyId: string };
  /** `catalog <args>` with the fleet's state URLs in its environment. */
  cli(args: string[]): ReturnType<typeof runCli>;
  down(): Promise<void>;
}

/** Starts a fleet through `scripts/fleet.sh up` (FLEET_TIER_LIMITS from `tierLimits`). */
export async function startLocalFleet(options: { tierLimits?: string } = {}): Promise<LocalFleet> {
  const dir = tempDir('catalog-fleet-');
  const pgServer: FleetServer = postgresPlan().start();
  const db = await freshDatabase(pgServer.url);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FLEET_STATE: dir,
    FLEET_STATE_URL: db.url,
    FLEET_CARDS: '200',
    ...(options.tierLimits ? { FLEET_TIER_LIMITS: options.tierLimits } : {}),
  };
  const fleet = (command: string) => spawnSync('bash', [FLEET_SH, command], { env, encoding: 'utf8', timeout: 120_000 });
  const cleanup = async () => {
    fleet('down');
    await db.drop().catch(() => undefined);
    pgServer.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  const up = fleet('up');
  if (up.status !== 0) {
    await cleanup();
    throw new Error(`scripts/fleet.sh up failed (${up.status ?? up.signal}):\n${up.stderr}`);
  }
  const run = (name: string) => readFileSync(join(dir, 'run', name), 'utf8').trim();
  const vars = Object.fromEntries([...fleet('env').stdout.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
  const hostPid = (n: number) => Number(run(`host-${n}.pid`));
  const redisEnv = { ...env, REDIS_STATE: join(dir, 'redis') };
  const cliEnv = { CATALOG_STATE_URL: vars.CATALOG_STATE_URL, CATALOG_REDIS_URL: vars.CATALOG_REDIS_URL };
  return {
    url: vars.FLEET_URL,
    hosts: [1, 2, 3].map((n) => `http://127.0.0.1:${run(`host-${n}.port`)}`),
    stateUrl: vars.CATALOG_STATE_URL,
    redisUrl: vars.CATALOG_REDIS_URL,
    internalKey: run('internal.key'),
    dir,
    hostPid,
    killHost(n) {
      process.kill(-hostPid(n), 'SIGKILL');
    },
    stopRedis: () => void execFileSync('bash', [REDIS_SH, 'stop'], { env: redisEnv, stdio: 'ignore' }),
    startRedis: () => void execFileSync('bash', [REDIS_SH, 'start'], { env: redisEnv, stdio: 'ignore' }),
    mint(tier, tenant = 'fleet-tests') {
      const r = runCli(['keys', 'mint', '--tenant', tenant, '--tier', tier, '--json'], cliEnv);
      if (r.status !== 0) throw new Error(`catalog keys mint failed: ${r.stderr}`);
      return JSON.parse(r.stdout) as { key: string; keyId: string };
    },
    cli: (args) => runCli(args, cliEnv),
    down: cleanup,
  };
}

/** The audit rows of a key in the fleet's PostgreSQL (the store of record). */
export async function auditRows(stateUrl: string, keyId: string): Promise<{ requestId: string; status: number }[]> {
  const { default: pg } = await import('pg');
  const client = new pg.Client(stateUrl);
  await client.connect();
  try {
    const r = await client.query<{ request_id: string; status: number }>('SELECT request_id, status FROM audit_log WHERE api_key_id = $1', [keyId]);
    return r.rows.map((row) => ({ requestId: row.request_id, status: row.status }));
  } finally {
    await client.end();
  }
}
