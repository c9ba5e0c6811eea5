/**
 * `catalog serve` (startServer, one process, real sockets) runs the webhook sender on either state:
 * an endpoint registered over HTTP, a snapshot published into the served folder, one signed POST
 * at the receiver. On the fleet state the endpoint and its delivery are in PostgreSQL.
 */
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { verifyCatalogWebhook } from '../../docs/webhooks/verify-signature.mjs';
import { startServer, type RunningServer } from '../../proxy/server/main.js';
import { INTERNAL_KEY, tempDir } from '../helpers/auth-fixtures.js';
import { writeFixtureSnapshot } from '../helpers/snapshot-fixture.js';
import { uniquePrefix } from '../helpers/state-harness.js';
import { describeOnEachState, startReceiver, waitFor, type Receiver } from './harness.js';

let server: RunningServer | undefined;
let receiver: Receiver | undefined;
const tmp = tempDir('catalog-webhooks-serve-');
afterEach(async () => {
  await server?.stop();
  await receiver?.close();
});
afterAll(() => tmp.cleanup());

describeOnEachState('catalog serve', (_open, where) => {
  it('sends a signed POST for a snapshot published while it serves', async () => {
    const { kind, world } = where();
    const root = join(tmp.dir, kind);
    await writeFixtureSnapshot(root, { label: 'first', id: '20261120T020000Z-aaaaaaaa' });
    receiver = await startReceiver();
    server = await startServer({
      snapshots: root, state: kind === 'sqlite' ? join(tmp.dir, `${kind}.sqlite`) : world!.pgUrl, redis: world?.redisUrl,
      host: '127.0.0.1', port: 0, workers: 1, handleSignals: false, log: () => undefined,
      env: { CATALOG_INTERNAL_KEY: INTERNAL_KEY, CATALOG_WEBHOOKS_ALLOW_LOOPBACK_HTTP: '1', CATALOG_WEBHOOKS_POLL_MS: '50', CATALOG_REDIS_PREFIX: uniquePrefix() },
    });
    const made = await fetch(`${server.url}/v1/admin/webhooks`, {
      method: 'POST', headers: { 'X-Service-Internal-Key': INTERNAL_KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ tenant: 'acme', url: receiver.url }),
    });
    expect(made.status).toBe(201);
    const { endpointId, secret } = await made.json();
    const id = (await writeFixtureSnapshot(root, { label: 'second', id: '20261120T020001Z-bbbbbbb1' })).id;
    // The snapshot current at start may be announced after the endpoint is registered (a first POST
    // for it): look for the publish's.
    const events = () => receiver!.received.map((r) => verifyCatalogWebhook(r.body, r.headers['catalog-signature'], secret) as { endpointId: string; snapshot: { snapshotId: string } });
    await waitFor(() => events().some((e) => e.snapshot.snapshotId === id));
    expect(events().filter((e) => e.snapshot.snapshotId === id)).toEqual([expect.objectContaining({ endpointId })]);
  });
});
