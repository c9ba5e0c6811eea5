/**
 * Webhooks through the front door: endpoints registered over the admin API, a real publish noticed
 * by the real sender, real POSTs to a receiver on a loopback port, checked with the verifier the
 * partner docs publish (docs/webhooks/verify-signature.mjs), and the delivery log read with keys.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { verifyCatalogWebhook } from '../../docs/webhooks/verify-signature.mjs';
import { signatureHeader } from '../../proxy/webhooks/signature.js';
import { describeOnEachState, startReceiver, waitFor, type Receiver, type WebhookHarness } from './harness.js';

let h: WebhookHarness;
let receiver: Receiver;
afterEach(async () => {
  await h?.close();
  await receiver?.close();
});

async function register(tenant: string, url: string): Promise<{ endpointId: string; secret: string }> {
  const res = await h.app.request('/v1/admin/webhooks', { method: 'POST', headers: h.internal, body: JSON.stringify({ tenant, url }) });
  expect(res.status).toBe(201);
  return res.json();
}

async function deliveries(headers: Record<string, string>, query = ''): Promise<{ status: number; body: { data: Record<string, unknown>[]; page: { total: number } } }> {
  const res = await h.app.request(`/v1/webhooks/deliveries${query}`, { headers });
  return { status: res.status, body: await res.json() };
}

describeOnEachState('webhook delivery', (webhookHarness) => {
  it('when a snapshot is published then each endpoint gets one POST whose signature the documented verifier accepts', async () => {
    h = await webhookHarness();
    receiver = await startReceiver();
    await h.startSender();
    const { endpointId, secret } = await register('acme', receiver.url);
    const id = await h.publish('second');
    await waitFor(() => receiver.received.length === 1);
    const { headers, body } = receiver.received[0];
    const event = verifyCatalogWebhook(body, headers['catalog-signature'], secret);
    expect(event).toMatchObject({
      type: 'snapshot.published', endpointId, deliveryId: headers['catalog-delivery-id'],
      snapshot: { snapshotId: id, createdAt: '2026-11-20T02:00:01.000Z', changes: expect.any(Object), counts: expect.any(Object) },
      links: { snapshot: `/v1/snapshot?snapshot=${id}`, feed: '/v1/snapshot/feed' },
    });
    expect(headers['user-agent']).toBe('catalog-webhooks/1');
    expect(headers['catalog-event']).toBe('snapshot.published');
    expect(headers['content-type']).toBe('application/json');
    // A wrong secret or a changed byte is refused.
    expect(() => verifyCatalogWebhook(body, headers['catalog-signature'], 'whsec_wrong')).toThrow(/does not match/);
    expect(() => verifyCatalogWebhook(body.replace('snapshot.published', 'snapshot.publishex'), headers['catalog-signature'], secret)).toThrow(/does not match/);

    await waitFor(async () => (await deliveries(await h.bearer('acme'))).body.data[0]?.status === 'delivered');
    const log = await deliveries(await h.bearer('acme'));
    expect(log.body.data).toEqual([expect.objectContaining({
      deliveryId: event.deliveryId, endpointId, snapshotId: id, status: 'delivered', attempts: 1, lastStatus: 200, lastError: null, nextAttemptAt: null,
    })]);
    // Nothing more is sent: one delivery per endpoint and snapshot.
    await new Promise((r) => setTimeout(r, 150));
    expect(receiver.received).toHaveLength(1);
  });

  it('when the receiver answers 500 twice then the same delivery is retried and delivered on the third attempt', async () => {
    h = await webhookHarness();
    receiver = await startReceiver();
    receiver.answer = (n) => (n < 2 ? 500 : 204);
    await h.startSender();
    const { secret } = await register('acme', receiver.url);
    await h.publish('second');
    await waitFor(() => receiver.received.length === 3);
    const ids = new Set(receiver.received.map((r) => r.headers['catalog-delivery-id']));
    expect(ids.size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    for (const r of receiver.received) verifyCatalogWebhook(r.body, r.headers['catalog-signature'], secret);
    await waitFor(async () => (await deliveries(await h.bearer('acme'))).body.data[0]?.status === 'delivered');
    expect((await deliveries(await h.bearer('acme'))).body.data[0]).toMatchObject({ attempts: 3, lastStatus: 204, lastError: null });
  });

  it('when the receiver keeps failing then the delivery is given up after the bound, with the last error recorded', async () => {
    h = await webhookHarness();
    receiver = await startReceiver();
    receiver.answer = () => 503;
    await h.startSender({ retry: { baseMs: 10, capMs: 30, maxAttempts: 3, maxAgeMs: 60_000 } });
    await register('acme', receiver.url);
    await h.publish('second');
    const acme = await h.bearer('acme');
    await waitFor(async () => (await deliveries(acme)).body.data[0]?.status === 'failed');
    expect((await deliveries(acme, '?status=failed')).body.data[0]).toMatchObject({
      attempts: 3, lastStatus: 503, lastError: 'the receiver answered HTTP 503 (gave up after 3 attempt(s))', nextAttemptAt: null, finishedAt: expect.any(String),
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.received).toHaveLength(3);
  });

  it('when the receiver answers 410 Gone then the delivery is not retried', async () => {
    h = await webhookHarness();
    receiver = await startReceiver();
    receiver.answer = () => 410;
    await h.startSender();
    await register('acme', receiver.url);
    await h.publish('second');
    await waitFor(async () => (await deliveries(await h.bearer('acme'))).body.data[0]?.status === 'failed');
    expect(receiver.received).toHaveLength(1);
  });

  it('when a receiver does not answer then the API answers at once, and stop() ends the attempt', async () => {
    h = await webhookHarness();
    receiver = await startReceiver();
    receiver.answer = () => 'hang';
    const sender = await h.startSender({ timeoutMs: 60_000 });
    await register('acme', receiver.url);
    await h.publish('second');
    await waitFor(() => receiver.received.length === 1);
    const acme = await h.bearer('acme');
    const started = performance.now();
    const res = await h.app.request('/v1/catalog/summary', { headers: acme });
    expect(res.status).toBe(200);
    expect((await deliveries(acme)).body.data[0]).toMatchObject({ status: 'pending', attempts: 0 });
    expect(performance.now() - started).toBeLessThan(500);
    const stopping = performance.now();
    await sender.stop();
    expect(performance.now() - stopping).toBeLessThan(1000);
  });
});

describe('the signature verifier of the partner docs', () => {
  const secret = 'whsec_test';
  const body = '{"type":"snapshot.published"}';
  const sign = (t: number) => signatureHeader(secret, t, body);

  it('accepts a fresh signature, and either secret while switching after a rotate', () => {
    const now = 1_800_000_000;
    expect(verifyCatalogWebhook(body, sign(now - 10), secret, now)).toEqual({ type: 'snapshot.published' });
    expect(verifyCatalogWebhook(Buffer.from(body), sign(now), ['whsec_new', secret], now)).toEqual({ type: 'snapshot.published' });
  });

  it('refuses a replay: a signature older (or newer) than the 5-minute window', () => {
    const now = 1_800_000_000;
    expect(() => verifyCatalogWebhook(body, sign(now - 301), secret, now)).toThrow(/tolerance/);
    expect(() => verifyCatalogWebhook(body, sign(now + 301), secret, now)).toThrow(/tolerance/);
  });

  it('refuses a malformed header', () => {
    expect(() => verifyCatalogWebhook(body, undefined, secret)).toThrow(/malformed/);
    expect(() => verifyCatalogWebhook(body, 't=1,v1=zz', secret)).toThrow(/malformed/);
  });
});
