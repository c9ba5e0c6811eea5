/**
 * A real proxy app over a real state (a SQLite file, or the fleet's PostgreSQL and Redis) and a
 * real snapshot root, the webhook sender on them with a millisecond schedule, and a real HTTP
 * receiver on a loopback port whose answers a test scripts. publish() writes and switches to a new fixture snapshot, as `catalog compile` would.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { createApp, webhookStoreOf } from '../../proxy/app.js';
import { loadConfig } from '../../proxy/config.js';
import { createKeyStore, type KeyStore } from '../../proxy/keys/store.js';
import type { MaybeAsync } from '../../proxy/route-table/route.js';
import { openFleetState, type FleetState } from '../../proxy/state/fleet/open-fleet.js';
import { openPostgres } from '../../proxy/state/fleet/postgres.js';
import { openStateDb, type StateDb } from '../../proxy/state/open.js';
import { createPostgresWebhookStore } from '../../proxy/webhooks/postgres-store.js';
import { startWebhookSender, type WebhookSender } from '../../proxy/webhooks/sender.js';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from '../../proxy/webhooks/settings.js';
import type { WebhookStore } from '../../proxy/webhooks/store.js';
import { createFsSnapshotSource } from '../../snapshots/store/fs.js';
import { INTERNAL_KEY, tempDir } from '../helpers/auth-fixtures.js';
import { writeFixtureSnapshot } from '../helpers/snapshot-fixture.js';
import { openFleetWorld, STATE_KINDS, uniquePrefix, type FleetWorld, type StateKind } from '../helpers/state-harness.js';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Status answered to request n (0-based); default 200. `hang`: never answer. */
  answer: (n: number) => number | 'hang';
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const r = { received, answer: (() => 200) as Receiver['answer'] } as Receiver;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const n = received.length;
      received.push({ headers: req.headers, body });
      const status = r.answer(n);
      if (status !== 'hang') res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/catalog`;
  r.close = () => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return r;
}

export const FAST: WebhookSettings = {
  ...DEFAULT_WEBHOOK_SETTINGS,
  allowLoopbackHttp: true, pollMs: 20, timeoutMs: 2000,
  retry: { baseMs: 20, capMs: 60, maxAttempts: 4, maxAgeMs: 60_000 },
};

export interface WebhookHarness {
  kind: StateKind;
  app: ReturnType<typeof createApp>;
  store: WebhookStore;
  internal: Record<string, string>;
  /** The header of a key minted for `tenant` through the state's own key store. */
  bearer(tenant: string): Promise<Record<string, string>>;
  publish(label: string): Promise<string>;
  startSender(settings?: Partial<WebhookSettings>): Promise<WebhookSender>;
  /** A store on a connection of its own to the same state, as another process would have; closed with the harness. */
  otherProcess(): Promise<WebhookStore>;
  close(): Promise<void>;
}

/** What differs between the states: where the app's state is, its keys, how many snapshots were announced. */
interface OpenedState {
  app: { db: StateDb } | { fleet: FleetState };
  keys: MaybeAsync<KeyStore>;
  announced(): Promise<number>;
  /** Another connection to the same state, and how to close it. */
  connect(): Promise<{ store: WebhookStore; close(): Promise<void> }>;
  close(): Promise<void>;
}

function openSqlite(dir: string): OpenedState {
  const file = join(dir, 'state.sqlite');
  const state = openStateDb(file);
  return {
    app: { db: state },
    keys: createKeyStore(state),
    announced: async () => (state.sqlite.prepare('SELECT count(*) AS n FROM webhook_snapshots').get() as { n: number }).n,
    connect: async () => {
      const other = openStateDb(file);
      return { store: webhookStoreOf({ db: other }), close: async () => other.close() };
    },
    close: async () => state.close(),
  };
}

async function openFleet(world: FleetWorld): Promise<OpenedState> {
  const fleet = await openFleetState({ postgres: world.pgUrl, redis: world.redisUrl, prefix: uniquePrefix(), serving: true, pgMax: 4 });
  // One database per test file: what an earlier test of the file left is not this test's.
  await fleet.pg.query('TRUNCATE api_keys, audit_log, webhook_endpoints, webhook_snapshots, webhook_deliveries');
  return {
    app: { fleet },
    keys: fleet.keys,
    announced: async () => (await fleet.pg.query<{ n: number }>('SELECT count(*)::integer AS n FROM webhook_snapshots')).rows[0].n,
    connect: async () => {
      const pg = openPostgres(world.pgUrl, { max: 4 });
      return { store: createPostgresWebhookStore(pg), close: () => pg.end() };
    },
    close: () => fleet.close(),
  };
}

export async function webhookHarness(kind: StateKind = 'sqlite', world: FleetWorld | null = null): Promise<WebhookHarness> {
  const tmp = tempDir('catalog-webhooks-');
  const root = join(tmp.dir, 'snapshots');
  await writeFixtureSnapshot(root, { label: 'first', id: '20261120T020000Z-aaaaaaaa' });
  if (kind === 'fleet' && world === null) throw new Error('a fleet harness needs openFleetWorld() first');
  const opened = kind === 'sqlite' ? openSqlite(tmp.dir) : await openFleet(world!);
  const snapshots = createFsSnapshotSource(root);
  const store = webhookStoreOf(opened.app);
  const app = createApp({
    ...opened.app, config: loadConfig({ CATALOG_INTERNAL_KEY: INTERNAL_KEY }), snapshots,
    logger: { error: () => undefined, info: () => undefined }, webhooks: { store, allowLoopbackHttp: true },
  });
  const senders: WebhookSender[] = [];
  const others: { close(): Promise<void> }[] = [];
  let n = 0;
  let closed = false;
  return {
    kind, app, store,
    internal: { 'X-Service-Internal-Key': INTERNAL_KEY, 'Content-Type': 'application/json' },
    bearer: async (tenant) => ({ Authorization: `Bearer ${(await opened.keys.mint({ tenant, tier: 'enterprise' })).key}` }),
    async publish(label) {
      n += 1;
      return (await writeFixtureSnapshot(root, { label, id: `20261120T02000${n}Z-bbbbbbb${n}` })).id;
    },
    async startSender(settings = {}) {
      const sender = startWebhookSender({ store, snapshots, settings: { ...FAST, ...settings } });
      senders.push(sender);
      // The snapshot already current when the sender starts is announced to the endpoints there are
      // (none yet): wait for it, so each test's publish is the one its endpoints hear about.
      await waitFor(async () => (await opened.announced()) > 0);
      return sender;
    },
    async otherProcess() {
      const other = await opened.connect();
      others.push(other);
      return other.store;
    },
    async close() {
      // Idempotent: a file's afterEach closes the last harness again after tests that open none.
      if (closed) return;
      closed = true;
      await Promise.all(senders.map((s) => s.stop()));
      await Promise.all(others.map((o) => o.close()));
      await opened.close();
      tmp.cleanup();
    },
  };
}

/**
 * `body`'s tests once per state this machine can test (test/helpers/state-harness.ts): the SQLite
 * file, and the fleet's real PostgreSQL and Redis, one database for the file's fleet run.
 */
export function describeOnEachState(name: string, body: (open: () => Promise<WebhookHarness>, state: () => { kind: StateKind; world: FleetWorld | null }) => void): void {
  describe.each(STATE_KINDS)(`${name} on the %s state`, (kind) => {
    let world: FleetWorld | null = null;
    beforeAll(async () => {
      if (kind === 'fleet') world = await openFleetWorld();
    });
    afterAll(async () => {
      await world?.close();
    });
    body(() => webhookHarness(kind, world), () => ({ kind, world }));
  });
}

export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('timed out waiting for a condition');
    await new Promise((r) => setTimeout(r, 10));
  }
}
