/**
 * The proxy app on either implementation of the state, for suites that must hold on both (the auth
 * contract): `sqlite`, a real state file in a temp folder (auth-fixtures.ts), or `fleet`, real
 * PostgreSQL and Redis servers (fleet-servers.ts), one database per test file, emptied and given a
 * fresh Redis prefix for every harness. Keys are minted through the state's own store; `rows()`
 * reads the audit rows where they are kept (SQLite; PostgreSQL once the stream is drained), in the
 * stored shape, oldest first.
 *
 * The fleet's clock starts 30 s into the NEXT real minute, not at the fixed T0: Redis expires a
 * window's counter at a real time (EXPIREAT), so a window in the past would be gone as it is counted.
 */
import { randomBytes } from 'node:crypto';
import { createApp } from '../../proxy/app.js';
import { loadConfig } from '../../proxy/config.js';
import type { KeyStore } from '../../proxy/keys/store.js';
import { windowStartOf } from '../../proxy/limits/counter.js';
import type { MaybeAsync } from '../../proxy/route-table/route.js';
import { openFleetState, type FleetState } from '../../proxy/state/fleet/open-fleet.js';
import type { SnapshotSource } from '../../snapshots/store/types.js';
import { auditRows, authHarness, capturingLogger, emptySnapshots, INTERNAL_KEY, T0, testClock, type LogLine, type StoredAuditRow, type TestClock } from './auth-fixtures.js';
import { freshDatabase, postgresPlan, redisPlan, type FleetServer } from './fleet-servers.js';

export type StateKind = 'sqlite' | 'fleet';

export interface StateHarness {
  kind: StateKind;
  app: ReturnType<typeof createApp>;
  keys: MaybeAsync<KeyStore>;
  clock: TestClock;
  /** Where the clock started: 30 s into a rate window. */
  t0: number;
  logs: LogLine[];
  rows(): Promise<StoredAuditRow[]>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  env?: NodeJS.ProcessEnv;
  snapshots?: SnapshotSource;
}

/** The servers and database one test file's fleet harnesses share. */
export interface FleetWorld {
  redisUrl: string;
  pgUrl: string;
  close(): Promise<void>;
}

const redisServers = redisPlan();
const pgServers = postgresPlan();
/** Why the fleet cannot be tested here (no server installed, not CI), or null. */
export const fleetUnavailable = redisServers.unavailable ?? pgServers.unavailable;
/** The state kinds this machine can test: both, or SQLite alone with a warning. */
export const STATE_KINDS: StateKind[] = fleetUnavailable ? ['sqlite'] : ['sqlite', 'fleet'];
if (fleetUnavailable) console.warn(`fleet state not tested: ${fleetUnavailable}`);

export async function openFleetWorld(options: { ownRedis?: boolean } = {}): Promise<FleetWorld & { redisServer: FleetServer }> {
  const redisServer = redisServers.start({ own: options.ownRedis });
  const pgServer = pgServers.start();
  const db = await freshDatabase(pgServer.url);
  return {
    redisServer,
    redisUrl: redisServer.url,
    pgUrl: db.url,
    async close() {
      await db.drop();
      redisServer.stop();
      pgServer.stop();
    },
  };
}

/** A Redis prefix no other harness or test file uses. */
export const uniquePrefix = () => `t${process.pid}-${randomBytes(4).toString('hex')}:`;

/** The clock of a fleet harness: 30 s into the next real rate window. */
export function fleetClock(): TestClock {
  return testClock((windowStartOf(Date.now()) + 60 + 30) * 1000);
}

export async function openFleetHost(world: FleetWorld, options: { prefix: string; clock: TestClock; env?: NodeJS.ProcessEnv; snapshots?: SnapshotSource; logs?: LogLine[] }): Promise<{ app: ReturnType<typeof createApp>; fleet: FleetState }> {
  const fleet = await openFleetState({ postgres: world.pgUrl, redis: world.redisUrl, prefix: options.prefix, serving: true, clock: options.clock, pgMax: 4 });
  const app = createApp({
    fleet,
    config: loadConfig(options.env ?? { CATALOG_INTERNAL_KEY: INTERNAL_KEY }),
    snapshots: options.snapshots ?? emptySnapshots,
    clock: options.clock,
    logger: capturingLogger(options.logs ?? []),
  });
  return { app, fleet };
}

export async function stateHarness(kind: StateKind, world: FleetWorld | null, options: HarnessOptions = {}): Promise<StateHarness> {
  if (kind === 'sqlite') {
    const h = authHarness(options);
    return {
      kind, app: h.app, keys: h.keys, clock: h.clock, t0: T0, logs: h.logs,
      rows: async () => auditRows(h.state),
      close: async () => h.close(),
    };
  }
  if (world === null) throw new Error('a fleet harness needs openFleetWorld() first');
  const clock = fleetClock();
  const logs: LogLine[] = [];
  const { app, fleet } = await openFleetHost(world, { prefix: uniquePrefix(), clock, logs, ...options });
  // One database per file: what an earlier test of the file left is not this test's.
  await fleet.pg.query('TRUNCATE api_keys, audit_log');
  return {
    kind, app, keys: fleet.keys, clock, t0: clock.now, logs,
    rows: () => pgAuditRows(fleet),
    close: () => fleet.close(),
  };
}

/** The audit rows in PostgreSQL once every entry appended so far is drained, oldest first, in the SQLite row shape. */
export async function pgAuditRows(fleet: FleetState): Promise<StoredAuditRow[]> {
  if (!(await fleet.flush(5000))) throw new Error('the audit stream did not drain into PostgreSQL within 5 s');
  const { rows } = await fleet.pg.query<Omit<StoredAuditRow, 'timestamp' | 'bytes'> & { at: Date; bytes: string | null }>(
    `SELECT api_key_id, tenant_name, route, status, at, request_id, path, bytes, duration_ms, snapshot_id FROM audit_log
      ORDER BY split_part(stream_id, '-', 1)::bigint, split_part(stream_id, '-', 2)::bigint`,
  );
  return rows.map(({ at, bytes, ...r }) => ({ ...r, timestamp: at.toISOString(), bytes: bytes === null ? null : Number(bytes) }));
}
