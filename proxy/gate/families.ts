/**
 * Route families partners may not call (API.md §4, fixed): `/v1/me/*` (sessions only),
 * `/v1/observations` (the mobile write surface) and `/v1/admin/*`, except reading the audit rows of
 * the caller's own keys. A valid bearer key there is 403 `forbidden`.
 */
import type { Context } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import type { ProxyEnv } from '../env.js';

export type PathFamily = 'partner' | 'me' | 'observations' | 'admin' | 'other';

const AUDIT_ROUTE = /^\/v1\/admin\/b2b-keys\/[^/]+\/audit\/?$/;

const under = (path: string, base: string) => path === base || path.startsWith(`${base}/`);

export function familyOf(path: string): PathFamily {
  if (!under(path, '/v1')) return 'other';
  if (under(path, '/v1/me')) return 'me';
  if (under(path, '/v1/observations')) return 'observations';
  if (under(path, '/v1/admin')) return 'admin';
  return 'partner';
}

export function isBearerForbidden(method: string, path: string): boolean {
  const family = familyOf(path);
  if (family === 'me' || family === 'observations') return true;
  if (family === 'admin') return !((method === 'GET' || method === 'HEAD') && AUDIT_ROUTE.test(path));
  return false;
}

export function refuseFamily(c: Context<ProxyEnv>): void {
  if (c.get('auth')?.kind === 'bearer' && isBearerForbidden(c.req.method, c.req.path)) {
    throw new CatalogError('forbidden', 'API keys cannot call this route: it belongs to the service\'s own apps or to operators.');
  }
}
