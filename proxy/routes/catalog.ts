/**
 * Every partner GET route of API.md §3, the public showcase and the snapshot and bulk routes, made
 * from the route table (proxy/route-table/) and mounted by createApp after the gate, the rate limit
 * and the audit middleware. What their answers share is built here, once per app: one ObjectServer
 * (snapshot pointer + byte-bounded object cache), the snapshot files, the search and the published key.
 */
import type { KeyObject } from 'node:crypto';
import { Hono } from 'hono';
import type { SnapshotSource } from '../../snapshots/store/types.js';
import type { ProxyEnv } from '../env.js';
import { registerRoutes } from '../route-table/register.js';
import type { Route } from '../route-table/route.js';
import { partnerRoutes } from '../route-table/table.js';
import type { SearchIndexCache } from '../search/index-cache.js';
import type { ObjectCache } from '../serve-object/object-cache.js';
import type { ServedObject } from '../serve-object/object-loader.js';
import { createObjectServer } from '../serve-object/object-server.js';
import { createSnapshotFiles } from '../snapshot-files/snapshot-files.js';
import { createSearchAnswer } from './search.js';
import { publishedKey } from './snapshot-public-key.js';

export interface CatalogRouteDeps {
  snapshots: SnapshotSource;
  /** Upper bound of the in-memory object cache, in bytes. */
  cacheBytes?: number;
  /** Open search indexes; the caller that passes one closes it at shutdown (proxy/server/serve-in-process.ts). */
  searchIndexes?: SearchIndexCache;
  /** The Ed25519 key that verifies the manifests, published at /v1/snapshot/public-key. */
  publicKey?: KeyObject | null;
  /** The object cache (made from `cacheBytes` when absent). */
  cache?: ObjectCache<ServedObject>;
  /** The routes to serve (default: the partner route table). */
  routes?: readonly Route[];
}

export function createCatalogRoutes(deps: CatalogRouteDeps): Hono<ProxyEnv> {
  const router = new Hono<ProxyEnv>();
  const serve = createObjectServer({ snapshots: deps.snapshots, cacheBytes: deps.cacheBytes, cache: deps.cache });
  registerRoutes(router, deps.routes ?? partnerRoutes(), {
    serve,
    files: createSnapshotFiles({ serve, snapshots: deps.snapshots }),
    search: createSearchAnswer({ snapshot: (c) => serve.pin(c), indexes: deps.searchIndexes }),
    publicKey: publishedKey(deps.publicKey),
  });
  return router;
}
