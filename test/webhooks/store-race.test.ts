/**
 * The store's guarantees when several processes share the state (every serve process of a host,
 * every host of a fleet), tested with two connections racing: a snapshot announced by both is
 * queued once, two claims at once never lease the same delivery, and an outcome is stored only by
 * the holder of the lease.
 */
import { afterEach, expect, it } from 'vitest';
import { describeOnEachState, type WebhookHarness } from './harness.js';

let h: WebhookHarness;
afterEach(async () => h?.close());

const SNAPSHOT = '20261120T020009Z-cccccccc';
const summary = JSON.stringify({ snapshotId: SNAPSHOT, previous: null });

describeOnEachState('webhook store shared by two processes', (webhookHarness) => {
  it('announces a snapshot once, leases each due delivery to one process, and settles only under the lease', async () => {
    h = await webhookHarness();
    const a = h.store;
    const b = await h.otherProcess();
    for (let i = 0; i < 6; i++) await a.create({ tenant: i % 2 ? 'acme' : 'zeta', url: `https://hooks${i}.example/x`, description: null });
    const now = Date.now();
    const queued = await Promise.all([a.announce(SNAPSHOT, summary, now), b.announce(SNAPSHOT, summary, now)]);
    expect([...queued].sort()).toEqual([0, 6]);

    const [first, second] = await Promise.all([a.claim('proc-a', now, 60_000, 4), b.claim('proc-b', now, 60_000, 4)]);
    const ids = [...first, ...second].map((d) => d.deliveryId);
    expect(new Set(ids).size).toBe(6);
    expect(first.length + second.length).toBe(6);
    // Leased rows are not due again until the lease runs out; then another process may take them.
    expect(await a.claim('proc-c', now + 1, 60_000, 10)).toEqual([]);
    const lapsed = await b.claim('proc-c', now + 60_000, 60_000, 10);
    expect(lapsed).toHaveLength(6);

    const outcome = { status: 'delivered' as const, attempts: 1, nextAttemptMs: null, lastStatus: 200, lastError: null, nowMs: now + 60_001 };
    // proc-a's lease was taken over: its late outcome is not stored.
    expect(await a.settle(first[0].deliveryId, 'proc-a', outcome)).toBe(false);
    expect(await a.settle(first[0].deliveryId, 'proc-c', outcome)).toBe(true);
    const log = await b.deliveries({ tenant: first[0].tenant, status: 'delivered', offset: 0, limit: 10 });
    expect(log.rows.map((d) => [d.deliveryId, d.attempts, d.finishedAt])).toEqual([[first[0].deliveryId, 1, new Date(now + 60_001).toISOString()]]);
    expect(log.total).toBe(1);
    expect(await b.prune(now + 60_002)).toBe(1);
  });
});
