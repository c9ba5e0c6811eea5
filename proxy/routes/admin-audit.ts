/**
 * GET /v1/admin/b2b-keys/:id/audit (API.md §4-5): a bearer key reads the rows of any key of its own
 * tenant (another tenant's key ID is 404, exactly like an unknown one, so IDs cannot be probed);
 * the internal key reads any. Rows newest first, `since` (inclusive) / `until` (exclusive),
 * `page`/`limit` (default 20, capped at 100), enveloped as kind `audit`, `private, no-store`.
 */
import { Hono, type Context } from 'hono';
import { envelope, pageInfo } from '../../snapshots/envelope.js';
import { CatalogError } from '../../snapshots/errors.js';
import type { AuditReader } from '../audit/reader.js';
import type { ProxyEnv } from '../env.js';
import { noSuchKey, type KeyStore } from '../keys/store.js';
import { parseInstant } from '../keys/validate.js';
import { linkHeader, parseListParams, rejectUnknownParams, singleParam } from '../http/params.js';
import { respondNegotiated } from '../http/respond-negotiated.js';
import { keyIdParam } from './admin-keys.js';

export const AUDIT_ROUTE = '/v1/admin/b2b-keys/:id/audit';
const DEFAULT_LIMIT = 20;

export interface AdminAuditRouteDeps {
  keys: KeyStore;
  audit: AuditReader;
  clock: () => number;
}

export function createAdminAuditRoutes(deps: AdminAuditRouteDeps): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();
  app.get(AUDIT_ROUTE, (c) => {
    c.set('routePattern', AUDIT_ROUTE);
    // The query is checked before the key is looked up: a malformed request is 400 whether or not
    // the key exists (the same for every caller, so it tells nothing about other tenants' keys).
    const query = new URL(c.req.url).searchParams;
    rejectUnknownParams(query, ['since', 'until', 'page', 'limit']);
    const { page, limit, warnings } = parseListParams(query, DEFAULT_LIMIT);
    const since = optionalInstant(query, 'since');
    const until = optionalInstant(query, 'until');
    if (since !== null && until !== null && until <= since) {
      throw new CatalogError('invalid_parameter', 'until must be after since', { parameter: 'until' });
    }
    const keyId = visibleKeyId(c, deps.keys);
    const { rows, total } = deps.audit.list({ keyId, sinceMs: since, untilMs: until, offset: (page - 1) * limit, limit });
    const body = JSON.stringify(envelope('audit', new Date(deps.clock()).toISOString(), rows, pageInfo(page, limit, total), warnings));
    const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Cache-Control': 'private, no-store' };
    const link = linkHeader(c.req.url, page, limit, total);
    if (link !== null) headers.Link = link;
    return respondNegotiated(c, body, 200, headers);
  });
  app.all(AUDIT_ROUTE, (c) => {
    throw new CatalogError('method_not_allowed', `${c.req.method} is not allowed on this route.`, { allow: 'GET, HEAD' });
  });
  return app;
}

function visibleKeyId(c: Context<ProxyEnv>, keys: KeyStore): string {
  const auth = c.get('auth');
  const keyId = keyIdParam(c.req.param('id') ?? '');
  const record = keys.get(keyId);
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

function optionalInstant(query: URLSearchParams, name: 'since' | 'until'): number | null {
  const raw = singleParam(query, name);
  return raw === undefined ? null : Date.parse(parseInstant(raw, name));
}
