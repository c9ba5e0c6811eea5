/** Who may use the admin routes: the internal key for everything; bearer keys only as audit-route allows. */
import type { Context } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import type { ProxyEnv } from '../env.js';

export function requireInternal(c: Context<ProxyEnv>): void {
  if (c.get('auth')?.kind !== 'internal') {
    throw new CatalogError('forbidden', 'Key administration needs the X-Service-Internal-Key header.');
  }
}
