/**
 * The answers of the webhook routes (declared in proxy/route-table/webhook-table.ts, which checks
 * ids, query parameters, paging and body fields first):
 *   POST   /v1/admin/webhooks                      { tenant, url, description? } → 201 the endpoint and its secret (shown this once)
 *   GET    /v1/admin/webhooks[?tenant=]            → 200 { endpoints: [...] } (never a secret)
 *   DELETE /v1/admin/webhooks/:id                  → 200 the deleted endpoint; its pending deliveries are cancelled
 *   POST   /v1/admin/webhooks/:id/rotate-secret    → 201 the endpoint and its new secret (shown this once)
 *   GET    /v1/webhooks                            → the caller's tenant's endpoints (bearer key)
 *   GET    /v1/webhooks/deliveries                 → the caller's tenant's deliveries, newest first (bearer key)
 * Only a bearer key has a tenant, so only a bearer key reads the partner routes; the tenant comes
 * from the key, never from the request, so one tenant cannot name another's endpoints.
 */
import type { Context } from 'hono';
import { envelope, pageInfo } from '../../snapshots/envelope.js';
import { CatalogError } from '../../snapshots/errors.js';
import type { ProxyEnv } from '../env.js';
import { linkHeader, type ListParams } from '../http/params.js';
import { respondNegotiated } from '../http/respond-negotiated.js';
import { parseTenant } from '../keys/validate.js';
import type { RouteDeps } from '../route-table/route.js';
import type { WebhookDeps } from './deps.js';
import { parseEndpointUrl } from './endpoint-url.js';
import type { DeliveryStatus } from './store.js';

export const MAX_DESCRIPTION_LENGTH = 200;

export function webhooksOf(deps: RouteDeps): WebhookDeps {
  // Both states keep webhooks (app.ts); only an app built without a state (a test's bare router) has none.
  if (deps.webhooks === undefined) throw new CatalogError('internal', 'No webhook store is wired into this app.');
  return deps.webhooks;
}

export function parseDescription(value: unknown, field = 'description'): string | null {
  if (value === undefined || value === null) return null;
  // Any text: it is only ever shown JSON-encoded (the API, `webhooks list --json`), never in the CLI table.
  if (typeof value !== 'string' || value.length > MAX_DESCRIPTION_LENGTH) {
    throw new CatalogError('invalid_parameter', `${field} must be text of at most ${MAX_DESCRIPTION_LENGTH} characters`, { parameter: field });
  }
  return value;
}

const noStore = (c: Context<ProxyEnv>, value: unknown, status: 200 | 201) =>
  respondNegotiated(c, JSON.stringify(value), status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });

export async function answerCreate(c: Context<ProxyEnv>, body: Record<string, unknown>, w: WebhookDeps): Promise<Response> {
  // Checked in the order of the fields in the document, so the first bad one is named.
  const tenant = parseTenant(body.tenant);
  const url = parseEndpointUrl(body.url, w);
  const description = parseDescription(body.description);
  return noStore(c, await w.store.create({ tenant, url, description }), 201);
}

export async function answerAdminList(c: Context<ProxyEnv>, tenant: string | undefined, w: WebhookDeps): Promise<Response> {
  return noStore(c, { endpoints: await w.store.list(tenant === undefined ? {} : { tenant }) }, 200);
}

export const answerDelete = async (c: Context<ProxyEnv>, id: string, w: WebhookDeps) => noStore(c, await w.store.delete(id), 200);
export const answerRotateSecret = async (c: Context<ProxyEnv>, id: string, w: WebhookDeps) => noStore(c, await w.store.rotateSecret(id), 201);

function callerTenant(c: Context<ProxyEnv>): string {
  const auth = c.get('auth');
  if (auth?.kind === 'bearer' && auth.tenant) return auth.tenant;
  throw new CatalogError('forbidden', 'Webhooks belong to a tenant: read them with one of the tenant\'s API keys. Operators list endpoints at /v1/admin/webhooks.');
}

function page<T>(c: Context<ProxyEnv>, kind: 'webhooks' | 'webhookDeliveries', rows: T[], total: number, list: ListParams, w: WebhookDeps): Promise<Response> {
  const body = JSON.stringify(envelope(kind, new Date(w.clock()).toISOString(), rows, pageInfo(list.page, list.limit, total), list.warnings));
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Cache-Control': 'private, no-store' };
  const link = linkHeader(c.req.url, list.page, list.limit, total);
  if (link !== null) headers.Link = link;
  return respondNegotiated(c, body, 200, headers);
}

export async function answerPartnerEndpoints(c: Context<ProxyEnv>, list: ListParams, w: WebhookDeps): Promise<Response> {
  const all = await w.store.list({ tenant: callerTenant(c) });
  const offset = (list.page - 1) * list.limit;
  return page(c, 'webhooks', all.slice(offset, offset + list.limit), all.length, list, w);
}

export async function answerPartnerDeliveries(c: Context<ProxyEnv>, filter: { endpoint?: string; status?: DeliveryStatus }, list: ListParams, w: WebhookDeps): Promise<Response> {
  const tenant = callerTenant(c);
  const { rows, total } = await w.store.deliveries({ tenant, endpointId: filter.endpoint, status: filter.status, offset: (list.page - 1) * list.limit, limit: list.limit });
  return page(c, 'webhookDeliveries', rows, total, list, w);
}
