/**
 * Partner routes are read-only (API.md §3): any other method on a partner path is 405 with
 * `Allow: GET, HEAD`, whether or not the path names a document, so writes are refused uniformly.
 * Admin paths have their own methods and answer 405 themselves (route-table/admin-table.ts).
 */
import type { Context } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import type { ProxyEnv } from '../env.js';
import { familyOf } from './families.js';

export const PARTNER_ALLOW = 'GET, HEAD';

export function refuseMethod(c: Context<ProxyEnv>): void {
  const method = c.req.method;
  if (method !== 'GET' && method !== 'HEAD' && familyOf(c.req.path) === 'partner') {
    throw new CatalogError('method_not_allowed', `${method} is not allowed here: partner routes are read-only (GET, HEAD).`, { allow: PARTNER_ALLOW });
  }
}
