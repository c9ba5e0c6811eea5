/**
 * Key administration over HTTP (API.md §4), for the internal key only:
 *   POST   /v1/admin/b2b-keys              { tenant, tier?, expiresAt? } → 201 the new key (shown this once)
 *   GET    /v1/admin/b2b-keys[?tenant=]    → 200 { keys: [...] } (never a key or a hash)
 *   DELETE /v1/admin/b2b-keys/:id          → 200 the revoked key's record, or 404
 *   POST   /v1/admin/b2b-keys/:id/rotate   { expiresAt? } → 201 a new key, same tenant and tier; the old one revoked
 * Every answer is `Cache-Control: no-store`.
 */
import { Hono, type Context } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import type { ProxyEnv } from '../env.js';
import { isKeyId } from '../keys/format.js';
import type { KeyRecord } from '../keys/record.js';
import type { KeyStore } from '../keys/store.js';
import { parseExpiry, parseTenant, parseTier } from '../keys/validate.js';
import { rejectUnknownParams, singleParam } from '../http/params.js';
import { respondNegotiated } from '../http/respond-negotiated.js';
import { requireInternal } from './admin-access.js';

export interface AdminKeyRouteDeps {
  keys: KeyStore;
  clock: () => number;
}

const MAX_BODY_BYTES = 4096;

export function createAdminKeyRoutes(deps: AdminKeyRouteDeps): Hono<ProxyEnv> {
  const { keys, clock } = deps;
  const app = new Hono<ProxyEnv>();
  const base = '/v1/admin/b2b-keys';

  app.post(base, async (c) => {
    c.set('routePattern', base);
    requireInternal(c);
    const body = await readJsonObject(c, ['tenant', 'tier', 'expiresAt']);
    const minted = keys.mint({
      tenant: parseTenant(body.tenant),
      tier: body.tier === undefined ? 'free' : parseTier(body.tier),
      expiresAt: body.expiresAt === undefined || body.expiresAt === null ? null : parseExpiry(body.expiresAt, clock()),
    });
    return noStore(c, minted, 201);
  });

  app.get(base, (c) => {
    c.set('routePattern', base);
    requireInternal(c);
    const query = new URL(c.req.url).searchParams;
    rejectUnknownParams(query, ['tenant']);
    const tenant = singleParam(query, 'tenant');
    return noStore(c, { keys: keys.list(tenant === undefined ? {} : { tenant: parseTenant(tenant) }).map(publicRecord) }, 200);
  });

  app.delete(`${base}/:id`, (c) => {
    c.set('routePattern', `${base}/:id`);
    requireInternal(c);
    return noStore(c, publicRecord(keys.revoke(keyIdParam(c.req.param('id')))), 200);
  });

  app.post(`${base}/:id/rotate`, async (c) => {
    c.set('routePattern', `${base}/:id/rotate`);
    requireInternal(c);
    const keyId = keyIdParam(c.req.param('id'));
    const body = await readJsonObject(c, ['expiresAt'], true);
    const expiresAt = body.expiresAt === undefined || body.expiresAt === null ? null : parseExpiry(body.expiresAt, clock());
    return noStore(c, keys.rotate(keyId, { expiresAt }).minted, 201);
  });

  const notAllowed = (allow: string) => (c: Context<ProxyEnv>) => {
    throw new CatalogError('method_not_allowed', `${c.req.method} is not allowed on this route.`, { allow });
  };
  app.all(base, notAllowed('GET, HEAD, POST'));
  app.all(`${base}/:id`, notAllowed('DELETE'));
  app.all(`${base}/:id/rotate`, notAllowed('POST'));
  return app;
}

/** The operator view of a key: the record plus nothing secret. */
function publicRecord(record: KeyRecord): KeyRecord {
  const { keyId, tenant, tier, createdAt, expiresAt, revokedAt, replacedBy } = record;
  return { keyId, tenant, tier, createdAt, expiresAt, revokedAt, replacedBy };
}

/**
 * A key ID that is not 8 letters or digits breaks the document's pattern, so it is 400 naming `id`
 * like any malformed parameter (a well-formed unknown one is 404). Not echoed: it may be a whole key.
 */
export function keyIdParam(id: string): string {
  if (!isKeyId(id)) throw new CatalogError('invalid_parameter', 'id must be a key ID: the 8 letters or digits after rxk_', { parameter: 'id' });
  return id;
}

function noStore(c: Context<ProxyEnv>, value: unknown, status: 200 | 201): Promise<Response> {
  return respondNegotiated(c, JSON.stringify(value), status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
}

async function readJsonObject(c: Context<ProxyEnv>, allowed: readonly string[], emptyIsObject = false): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new CatalogError('invalid_parameter', `body must be at most ${MAX_BODY_BYTES} bytes`, { parameter: 'body' });
  if (text.trim() === '' && emptyIsObject) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CatalogError('invalid_parameter', 'body must be a JSON object', { parameter: 'body' });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new CatalogError('invalid_parameter', 'body must be a JSON object', { parameter: 'body' });
  }
  for (const field of Object.keys(parsed)) {
    if (!allowed.includes(field)) throw new CatalogError('invalid_parameter', `unknown field ${field} (expected ${allowed.join(', ')})`, { parameter: field });
  }
  return parsed as Record<string, unknown>;
}
