/**
 * Endpoint administration (internal key) and the partner reads (bearer key): the secret shown only
 * on create and rotate, URL validation, and one tenant never seeing another's endpoints or deliveries.
 */
import { afterEach, expect, it } from 'vitest';
import { ENDPOINT_ID_PATTERN, SECRET_PATTERN } from '../../proxy/webhooks/ids.js';
import { describeOnEachState, type WebhookHarness } from './harness.js';

let h: WebhookHarness;
afterEach(async () => h?.close());

const create = (body: unknown, headers = h.internal) => h.app.request('/v1/admin/webhooks', { method: 'POST', headers, body: JSON.stringify(body) });

describeOnEachState('webhook administration', (webhookHarness) => {
  it('create shows the secret once; list, delete and the partner reads never do; rotate shows a new one', async () => {
    h = await webhookHarness();
    const res = await create({ tenant: 'acme', url: 'https://hooks.acme.example/catalog', description: 'importer' });
    expect(res.status).toBe(201);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const made = await res.json();
    expect(made).toMatchObject({ endpointId: expect.stringMatching(ENDPOINT_ID_PATTERN), tenant: 'acme', url: 'https://hooks.acme.example/catalog', description: 'importer', secretRotatedAt: null });
    expect(made.secret).toMatch(SECRET_PATTERN);
    const list = await (await h.app.request('/v1/admin/webhooks?tenant=acme', { headers: h.internal })).json();
    expect(list.endpoints).toEqual([{ ...made, secret: undefined }].map(({ secret, ...e }) => e));
    expect(JSON.stringify(list)).not.toContain(made.secret);
    const mine = await (await h.app.request('/v1/webhooks', { headers: await h.bearer('acme') })).json();
    expect(mine).toMatchObject({ kind: 'webhooks', data: list.endpoints, page: { total: 1 } });
    const rotated = await (await h.app.request(`/v1/admin/webhooks/${made.endpointId}/rotate-secret`, { method: 'POST', headers: h.internal })).json();
    expect(rotated.secret).toMatch(SECRET_PATTERN);
    expect(rotated.secret).not.toBe(made.secret);
    expect(rotated.secretRotatedAt).not.toBeNull();
    const deleted = await h.app.request(`/v1/admin/webhooks/${made.endpointId}`, { method: 'DELETE', headers: h.internal });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).not.toHaveProperty('secret');
    expect((await h.app.request(`/v1/admin/webhooks/${made.endpointId}`, { method: 'DELETE', headers: h.internal })).status).toBe(404);
  });

  it.each([
    [{ tenant: 'acme', url: 'http://hooks.acme.example/x' }, 'url'],
    [{ tenant: 'acme', url: 'https://user:pw@hooks.acme.example/x' }, 'url'],
    [{ tenant: 'acme', url: 'ftp://hooks.acme.example/x' }, 'url'],
    [{ tenant: 'acme', url: `https://hooks.acme.example/${'a'.repeat(2100)}` }, 'url'],
    [{ tenant: 'acme', url: 'https://hooks.acme.example/x#frag' }, 'url'],
    [{ tenant: 'acme', url: 'not a url' }, 'url'],
    [{ tenant: 'a b', url: 'https://hooks.acme.example/x' }, 'tenant'],
    [{ tenant: 'acme', url: 'https://hooks.acme.example/x', secret: 's' }, 'secret'],
  ])('when the body is %j then 400 naming %s', async (body, field) => {
    h = await webhookHarness();
    const res = await create(body);
    expect(res.status).toBe(400);
    expect((await res.json()).parameter ?? field).toBe(field);
  });

  it('plain http is accepted only to a loopback host (with the test-only setting on)', async () => {
    h = await webhookHarness();
    expect((await create({ tenant: 'acme', url: 'http://127.0.0.1:9/x' })).status).toBe(201);
    expect((await create({ tenant: 'acme', url: 'http://10.0.0.1/x' })).status).toBe(400);
  });

  it('a bearer key cannot administer endpoints (403), and other callers cannot read the partner routes (403)', async () => {
    h = await webhookHarness();
    const acme = await h.bearer('acme');
    expect((await create({ tenant: 'acme', url: 'https://hooks.acme.example/x' }, { ...acme, 'Content-Type': 'application/json' })).status).toBe(403);
    expect((await h.app.request('/v1/admin/webhooks', { headers: acme })).status).toBe(403);
    expect((await h.app.request('/v1/webhooks', { headers: h.internal })).status).toBe(403);
    expect((await h.app.request('/v1/webhooks', { method: 'POST', headers: acme })).status).toBe(405);
  });

  it('one tenant never sees another tenant\'s endpoints or deliveries, even naming its endpoint id', async () => {
    h = await webhookHarness();
    const acmeHook = await (await create({ tenant: 'acme', url: 'https://hooks.acme.example/x' })).json();
    await (await create({ tenant: 'zeta', url: 'https://hooks.zeta.example/x' })).json();
    await h.store.announce('20261120T020009Z-cccccccc', JSON.stringify({ snapshotId: '20261120T020009Z-cccccccc', previous: null }), Date.now());
    const acme = await h.bearer('acme');
    const zeta = await h.bearer('zeta');
    const zetaHooks = await (await h.app.request('/v1/webhooks', { headers: zeta })).json();
    expect(zetaHooks.data.map((e: { tenant: string }) => e.tenant)).toEqual(['zeta']);
    const acmeLog = await (await h.app.request('/v1/webhooks/deliveries', { headers: acme })).json();
    expect(acmeLog.data.map((d: { endpointId: string }) => d.endpointId)).toEqual([acmeHook.endpointId]);
    const probe = await (await h.app.request(`/v1/webhooks/deliveries?endpoint=${acmeHook.endpointId}`, { headers: zeta })).json();
    expect(probe.data).toEqual([]);
    expect(probe.page.total).toBe(0);
    expect((await h.app.request('/v1/webhooks/deliveries?status=lost', { headers: zeta })).status).toBe(400);
  });
});
