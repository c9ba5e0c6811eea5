/**
 * What the answers of the route table (proxy/route-table/) share, built here once per app: one
 * ObjectServer (snapshot pointer + byte-bounded object cache), the snapshot files, the search, the
 * published key, key administration and the audit reader, and the OpenAPI document; and the Hono
 * router made from a table with them (createApp mounts the document's before the request path and
 * the partner table's after it).
 */
import type { KeyObject } from 'node:crypto';
import { Hono } from 'hono';
import type { SnapshotSource } from '../../snapshots/store/types.js';
import type { ProxyEnv } from '../env.js';
import { registerRoutes } from '../route-table/register.js';
import type { AdminDeps, Route, RouteDeps } from '../route-table/route.js';
import type { WebhookDeps } from '../webhooks/deps.js';
import type { SearchIndexCache } from '../search/index-cache.js';
import type { ObjectCache } from '../serve-object/object-cache.js';
import type { ServedObject } from '../serve-object/object-loader.js';
import { createObjectServer } from '../serve-object/object-server.js';
import { createSnapshotFiles } from '../snapshot-files/snapshot-files.js';
import { createSnapshotList } from '../snapshot-files/snapshot-list.js';
import { createDocumentAnswer } from './openapi.js';
import { createSearchAnswer } from './search.js';
import { publishedKey } from './snapshot-public-key.js';

export interface RouteDepsOptions {
  snapshots: SnapshotSource;
  /** Upper bound of the in-memory object cache, in bytes. */
  cacheBytes?: number;
  /** Open search indexes; the caller that passes one closes it at shutdown (proxy/server/serve-in-process.ts). */
  searchIndexes?: SearchIndexCache;
  /** The Ed25519 key that verifies the manifests, published at /v1/snapshot/public-key. */
  publicKey?: KeyObject | null;
  /** The object cache (made from `cacheBytes` when absent). */
  cache?: ObjectCache<ServedObject>;
  admin?: AdminDeps;
  webhooks?: WebhookDeps;
  /** Builds the OpenAPI document served at /openapi.json (once, on its first request). */
  document?: () => unknown;
}

export function createRouteDeps(options: RouteDepsOptions): RouteDeps {
  const serve = createObjectServer({ snapshots: options.snapshots, cacheBytes: options.cacheBytes, cache: options.cache });
  return {
    serve,
    files: createSnapshotFiles({ serve, snapshots: options.snapshots }),
    snapshots: createSnapshotList({ snapshots: options.snapshots, current: (c) => serve.pin(c) }),
    search: createSearchAnswer({ snapshot: (c) => serve.pin(c), indexes: options.searchIndexes }),
    publicKey: publishedKey(options.publicKey),
    admin: options.admin,
    webhooks: options.webhooks,
    document: options.document === undefined ? undefined : createDocumentAnswer(options.document),
  };
}

export function tableRouter(table: readonly Route[], deps: RouteDeps): Hono<ProxyEnv> {
  const router = new Hono<ProxyEnv>();
  registerRoutes(router, table, deps);
  return router;
}
