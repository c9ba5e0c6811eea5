/**
 * Every partner GET route of API.md §3 plus the public showcase, mounted by createApp after the gate,
 * the rate limit and the audit middleware. Each route lives in its own file; they share one
 * ObjectServer (snapshot pointer + byte-bounded object cache) built here, once per app.
 */
import { Hono } from 'hono';
import type { ProxyEnv } from '../env.js';
import type { SnapshotSource } from '../../snapshots/store/types.js';
import type { ObjectCache } from '../serve-object/object-cache.js';
import type { ServedObject } from '../serve-object/object-loader.js';
import { createObjectServer } from '../serve-object/object-server.js';
import { registerArtistRoute } from './artists.js';
import { registerCardRoute } from './cards.js';
import { registerCatalogSummaryRoute } from './catalog-summary.js';
import { registerDiscoverRoute } from './discover.js';
import { registerFigureSeriesRoute } from './figure-series.js';
import { registerFigureRoute } from './figures.js';
import { registerOracleRoute } from './oracle.js';
import { registerPullStatsRoute } from './pull-stats.js';
import { registerRecentRoute } from './recent.js';
import { registerSearchRoute } from './search.js';
import { registerSetRoute } from './sets.js';
import { registerShowcaseRoutes } from './showcase.js';
import { registerTrendingRoute } from './trending.js';
import type { SearchIndexCache } from '../search/index-cache.js';
import type { KeyObject } from 'node:crypto';
import { keyFingerprint } from '../../snapshots/signature.js';
import { createSnapshotFiles } from '../snapshot-files/snapshot-files.js';
import { registerSnapshotRoute } from './snapshot.js';
import { registerManifestRoutes } from './snapshot-manifest.js';
import { registerChangesRoute } from './snapshot-changes.js';
import { registerPublicKeyRoute } from './snapshot-public-key.js';
import { registerObjectRoute } from './snapshot-objects.js';
import { registerBulkRoutes } from './bulk.js';

export interface CatalogRouteDeps {
  snapshots: SnapshotSource;
  /** Upper bound of the in-memory object cache, in bytes. */
  cacheBytes?: number;
  /** Open search indexes; the caller that passes one closes it at shutdown (proxy/serve-in-process.ts). */
  searchIndexes?: SearchIndexCache;
  /** The Ed25519 key that verifies the manifests, published at /v1/snapshot/public-key. */
  publicKey?: KeyObject | null;
  /** The object cache (made from `cacheBytes` when absent). */
  cache?: ObjectCache<ServedObject>;
}

export function createCatalogRoutes(deps: CatalogRouteDeps): Hono<ProxyEnv> {
  const router = new Hono<ProxyEnv>();
  const serve = createObjectServer({ snapshots: deps.snapshots, cacheBytes: deps.cacheBytes, cache: deps.cache });
  registerCardRoute(router, serve);
  registerFigureSeriesRoute(router, serve);
  registerFigureRoute(router, serve);
  registerOracleRoute(router, serve);
  registerSetRoute(router, serve);
  registerArtistRoute(router, serve);
  registerPullStatsRoute(router, serve);
  registerTrendingRoute(router, serve);
  registerRecentRoute(router, serve);
  registerDiscoverRoute(router, serve);
  registerCatalogSummaryRoute(router, serve);
  registerShowcaseRoutes(router, serve);
  registerSearchRoute(router, { snapshot: (c) => serve.pin(c), indexes: deps.searchIndexes });
  const files = createSnapshotFiles({ serve, snapshots: deps.snapshots });
  registerSnapshotRoute(router, files, deps.publicKey ? keyFingerprint(deps.publicKey) : null);
  registerManifestRoutes(router, files);
  registerChangesRoute(router, files);
  registerPublicKeyRoute(router, deps.publicKey ?? null);
  registerObjectRoute(router, serve, files);
  registerBulkRoutes(router, files);
  return router;
}
