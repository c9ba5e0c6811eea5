/**
 * A real proxy app over a real SQLite state file and a real snapshot root, the webhook sender on
 * them with a millisecond schedule, and a real HTTP receiver on a loopback port whose answers a test
 * scripts. publish() writes and switches to a new fixture snapshot, as `catalog compile` would.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createApp } from '../../proxy/app.js';
import { loadConfig } from '../../proxy/config.js';
import { createKeyStore } from '../../proxy/keys/store.js';
import { openStateDb, type StateDb } from '../../proxy/state/open.js';
import { startWebhookSender, type WebhookSender } from '../../proxy/webhooks/sender.js';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from '../../proxy/webhooks/settings.js';
import { createSqliteWebhookStore } from '../../proxy/webhooks/sqlite-store.js';
import type { WebhookStore } from '../../proxy/webhooks/store.js';
import { createFsSnapshotSource } from '../../snapshots/store/fs.js';
import { INTERNAL_KEY, tempDir } from '../helpers/auth-fixtures.js';
import { writeFixtureSnapshot } from '../helpers/snapshot-fixture.js';

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
  app: ReturnType<typeof createApp>;
  state: StateDb;
  stateFile: string;
  store: WebhookStore;
  internal: Record<string, string>;
  bearer(tenant: string): Record<string, string>;
  publish(label: string): Promise<string>;
  startSender(settings?: Partial<WebhookSettings>): Promise<WebhookSender>;
  close(): Promise<void>;
}

export async function webhookHarness(): Promise<WebhookHarness> {
  const tmp = tempDir('catalog-webhooks-');
  const root = join(tmp.dir, 'snapshots');
  await writeFixtureSnapshot(root, { label: 'first', id: '20261120T020000Z-aaaaaaaa' });
  const stateFile = join(tmp.dir, 'state.sqlite');
  const state = openStateDb(stateFile);
  const snapshots = createFsSnapshotSource(root);
  const store = createSqliteWebhookStore(state);
  const app = createApp({
    db: state, config: loadConfig({ CATALOG_INTERNAL_KEY: INTERNAL_KEY }), snapshots,
    logger: { error: () => undefined, info: () => undefined }, webhooks: { store, allowLoopbackHttp: true },
  });
  const keys = createKeyStore(state);
  const senders: WebhookSender[] = [];
  let n = 0;
  return {
    app, state, stateFile, store,
    internal: { 'X-Service-Internal-Key': INTERNAL_KEY, 'Content-Type': 'application/json' },
    bearer: (tenant) => ({ Authorization: `Bearer ${keys.mint({ tenant, tier: 'enterprise' }).key}` }),
    async publish(label) {
      n += 1;
      return (await writeFixtureSnapshot(root, { label, id: `20261120T02000${n}Z-bbbbbbb${n}` })).id;
    },
    async startSender(settings = {}) {
      const sender = startWebhookSender({ store, snapshots, settings: { ...FAST, ...settings } });
      senders.push(sender);
      // The snapshot already current when the sender starts is announced to the endpoints there are
      // (none yet): wait for it, so each test's publish is the one its endpoints hear about.
      await waitFor(() => (state.sqlite.prepare('SELECT count(*) AS n FROM webhook_snapshots').get() as { n: number }).n > 0);
      return sender;
    },
    async close() {
      await Promise.all(senders.map((s) => s.stop()));
      state.close();
      tmp.cleanup();
    },
  };
}

export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('timed out waiting for a condition');
    await new Promise((r) => setTimeout(r, 10));
  }
}
