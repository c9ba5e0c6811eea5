/**
 * The answers of key administration over HTTP (API.md §4; declared in route-table/admin-table.ts,
 * internal key only, body fields and key ID checked there):
 *   POST   /v1/admin/b2b-keys              { tenant, tier?, expiresAt? } → 201 the new key (shown this once)
 *   GET    /v1/admin/b2b-keys[?tenant=]    → 200 { keys: [...] } (never a key or a hash)
 *   DELETE /v1/admin/b2b-keys/:id          → 200 the revoked key's record, or 404
 *   POST   /v1/admin/b2b-keys/:id/rotate   { expiresAt? } → 201 a new key, same tenant and tier; the old one revoked
 * Every answer is `Cache-Control: no-store`.
 */
import type { Context } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import type { ProxyEnv } from '../env.js';
import type { KeyRecord } from '../keys/record.js';
import { parseExpiry, parseTenant, parseTier } from '../keys/validate.js';
import { respondNegotiated } from '../http/respond-negotiated.js';
import type { AdminDeps, RouteDeps } from '../route-table/route.js';

/** The admin parts of the app; a router made without them (a test's) cannot answer these routes. */
export function adminOf(deps: RouteDeps): AdminDeps {
  if (deps.admin === undefined) throw new CatalogError('internal', 'key administration is not wired into this router');
  return deps.admin;
}

const expiryOf = (value: unknown, admin: AdminDeps) => (value === undefined || value === null ? null : parseExpiry(value, admin.clock()));

export async function answerMint(c: Context<ProxyEnv>, body: Record<string, unknown>, admin: AdminDeps): Promise<Response> {
  const minted = await admin.keys.mint({
    tenant: parseTenant(body.tenant),
    tier: body.tier === undefined ? 'free' : parseTier(body.tier),
    expiresAt: expiryOf(body.expiresAt, admin),
  });
  return noStore(c, minted, 201);
}

export async function answerList(c: Context<ProxyEnv>, tenant: string | undefined, admin: AdminDeps): Promise<Response> {
  return noStore(c, { keys: (await admin.keys.list(tenant === undefined ? {} : { tenant })).map(publicRecord) }, 200);
}

export async function answerRevoke(c: Context<ProxyEnv>, keyId: string, admin: AdminDeps): Promise<Response> {
  return noStore(c, publicRecord(await admin.keys.revoke(keyId)), 200);
}

export async function answerRotate(c: Context<ProxyEnv>, keyId: string, body: Record<string, unknown>, admin: AdminDeps): Promise<Response> {
  return noStore(c, (await admin.keys.rotate(keyId, { expiresAt: expiryOf(body.expiresAt, admin) })).minted, 201);
}

/** The operator view of a key: the record plus nothing secret. */
function publicRecord(record: KeyRecord): KeyRecord {
  const { keyId, tenant, tier, createdAt, expiresAt, revokedAt, replacedBy } = record;
  return { keyId, tenant, tier, createdAt, expiresAt, revokedAt, replacedBy };
}

function noStore(c: Context<ProxyEnv>, value: unknown, status: 200 | 201): Promise<Response> {
  return respondNegotiated(c, JSON.stringify(value), status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
}
