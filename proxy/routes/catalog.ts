// PLACEHOLDER (owned by the catalog-routes helper): every partner GET route of API.md §3 and /v1/u/:handle.
import { Hono } from 'hono';
import type { ProxyEnv } from '../env.js';
import type { SnapshotSource } from '../../snapshots/store/types.js';

export interface CatalogRouteDeps {
  snapshots: SnapshotSource;
  /** Upper bound of the in-memory object cache, in bytes. */
  cacheBytes?: number;
}

export function createCatalogRoutes(_deps: CatalogRouteDeps): Hono<ProxyEnv> {
  return new Hono<ProxyEnv>();
}
