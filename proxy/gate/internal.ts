/**
 * The service's own backends (API.md §4, caller kind 3): `X-Service-Internal-Key` equal to
 * CATALOG_INTERNAL_KEY, compared in constant time. Unset secret: this caller kind is off. The
 * internal key is also what the admin routes require.
 */
import type { Context } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import type { ProxyEnv } from '../env.js';
import { secretsEqual } from '../keys/hash.js';

export const INTERNAL_KEY_HEADER = 'X-Service-Internal-Key';

export function isInternalCaller(configured: string | null, presented: string | undefined): boolean {
  if (configured === null || presented === undefined || presented === '') return false;
  return secretsEqual(presented, configured);
}

/** Key administration is for the internal key only (route-table `caller: 'internal'`). */
export function requireInternal(c: Context<ProxyEnv>): void {
  if (c.get('auth')?.kind !== 'internal') {
    throw new CatalogError('forbidden', 'Key administration needs the X-Service-Internal-Key header.');
  }
}
