/**
 * The answer of GET /v1/admin/b2b-keys/:id/audit (API.md §4-5; declared in
 * route-table/admin-table.ts, which checks the key ID, `since`, `until`, `page` and `limit`): a
 * bearer key reads the rows of any key of its own tenant (another tenant's key ID is 404, exactly
 * like an unknown one, so IDs cannot be probed); the internal key reads any. Rows newest first,
 * `since` (inclusive) / `until` (exclusive), enveloped as kind `audit`, `private, no-store`.
 */
import type { Context } from 'hono';
import { envelope, pageInfo } from '../../snapshots/envelope.js';
import { CatalogError } from '../../snapshots/errors.js';
import type { ProxyEnv } from '../env.js';
import { noSuchKey } from '../keys/store.js';
import { linkHeader, type ListParams } from '../http/params.js';
import { respondNegotiated } from '../http/respond-negotiated.js';
import type { AdminDeps } from '../route-table/route.js';

export interface AuditRequest {
  keyId: string;
  /** ms since the epoch, or null when not given. */
  since: number | null;
  until: number | null;
}

export async function answerAudit(c: Context<ProxyEnv>, request: AuditRequest, list: ListParams, admin: AdminDeps): Promise<Response> {
  const { since, until } = request;
  const { page, limit, warnings } = list;
  if (since !== null && until !== null && until <= since) {
    throw new CatalogError('invalid_parameter', 'until must be after since', { parameter: 'until' });
  }
  // The query is checked before the key is looked up: a malformed request is 400 whether or not
  // the key exists (the same for every caller, so it tells nothing about other tenants' keys).
  const keyId = await visibleKeyId(c, admin.keys, request.keyId);
  const { rows, total } = await admin.audit.list({ keyId, sinceMs: since, untilMs: until, offset: (page - 1) * limit, limit });
  const body = JSON.stringify(envelope('audit', new Date(admin.clock()).toISOString(), rows, pageInfo(page, limit, total), warnings));
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Cache-Control': 'private, no-store' };
  const link = linkHeader(c.req.url, page, limit, total);
  if (link !== null) headers.Link = link;
  return respondNegotiated(c, body, 200, headers);
}

async function visibleKeyId(c: Context<ProxyEnv>, keys: AdminDeps['keys'], keyId: string): Promise<string> {
  const auth = c.get('auth');
  const record = await keys.get(keyId);
  const notFound = () => noSuchKey(keyId);
  if (auth?.kind === 'internal') {
    if (!record) throw notFound();
    return keyId;
  }
  if (auth?.kind === 'bearer') {
    if (!record || record.tenant !== auth.tenant) throw notFound();
    return keyId;
  }
  throw new CatalogError('forbidden', 'Audit rows can be read with an API key of the same tenant or the internal key.');
}
