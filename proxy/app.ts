/**
 * The proxy as a Hono app. `createApp` wires the parts and never listens (proxy/server/serve-in-process.ts does), so
 * tests drive it in-process with `app.request(...)`.
 *
 * In the order a request meets them:
 *   request id     every response, errors included, carries X-Request-Id (http/request-id.ts)
 *   health         /healthz and /readyz answer here: no credential, no log line, no metrics sample
 *   telemetry      the request log line and the metrics sample, timed around everything below
 *   /openapi.json  outside /v1 and before the gate: no credential, not counted, no audit row
 *   request path   gate, limit, gate's guards, then the route; every answer then goes through the
 *                  audit commit (row + count, maybe the 429) and is built once (request-path.ts)
 *   routes         the route table: catalog, snapshot, admin (route-table/); anything else → 404
 */
import type { KeyObject } from 'node:crypto';
import { Hono } from 'hono';
import type { Registry } from 'prom-client';
import { CatalogError } from '../snapshots/errors.js';
import type { SnapshotSource } from '../snapshots/store/types.js';
import { createAuditSettle } from './audit/settle.js';
import { createAuditReader } from './audit/reader.js';
import { createAuditWriter } from './audit/writer.js';
import type { ProxyConfig } from './config.js';
import type { ProxyEnv } from './env.js';
import { createErrorResponder } from './errors.js';
import { createGate } from './gate/gate.js';
import { createKeyStore } from './keys/store.js';
import { createRateLimiter } from './limits/counter.js';
import { createLimitStage } from './limits/limit.js';
import { defaultLogger, type ProxyLogger } from './logger.js';
import { createHealthRoutes } from './ops/health-routes.js';
import { createProxyMetrics } from './ops/metrics.js';
import { createReadiness } from './ops/readiness.js';
import { createRequestTelemetry } from './ops/request-telemetry.js';
import { createRequestId } from './http/request-id.js';
import { createRequestPath } from './request-path.js';
import { createRouteDeps, tableRouter } from './routes/route-deps.js';
import { documentTable } from './route-table/document-table.js';
import { buildOpenApiDocument } from './openapi/document.js';
import { committedExamples } from './openapi/examples.js';
import type { Route } from './route-table/route.js';
import { partnerRoutes } from './route-table/table.js';
import { createObjectCache } from './serve-object/object-cache.js';
import type { ServedObject } from './serve-object/object-loader.js';
import { createGroupCommit } from './state/group-commit.js';
import type { StateDb } from './state/open.js';
import type { SearchIndexCache } from './search/index-cache.js';
import { createSqliteWebhookStore } from './webhooks/sqlite-store.js';
import type { WebhookStore } from './webhooks/store.js';

export interface AppDeps {
  db: StateDb;
  config: ProxyConfig;
  snapshots: SnapshotSource;
  /** Wall clock in ms (key expiry, rate windows, audit timestamps); Date.now by default. */
  clock?: () => number;
  logger?: ProxyLogger;
  /** Upper bound of the catalog routes' object cache, in bytes. */
  cacheBytes?: number;
  /** Open search indexes (default: a cache owned by the app, never closed; serve-in-process.ts passes its own and closes it on stop). */
  searchIndexes?: SearchIndexCache;
  /** Ed25519 public key published at /v1/snapshot/public-key (none when absent). */
  publicKey?: KeyObject | null;
  /** Where the proxy's metrics are registered (proxy/ops/metrics.ts); absent: no metrics are kept. */
  metricsRegistry?: Registry;
  /** The /v1 routes served and documented at /openapi.json (default: proxy/route-table/table.ts). */
  routes?: readonly Route[];
  /** Webhook endpoints and deliveries (default: on `db`); `allowLoopbackHttp` from CATALOG_WEBHOOKS_ALLOW_LOOPBACK_HTTP. */
  webhooks?: { store?: WebhookStore; allowLoopbackHttp?: boolean };
}

export function createApp(deps: AppDeps): Hono<ProxyEnv> {
  const clock = deps.clock ?? Date.now;
  const logger = deps.logger ?? defaultLogger();
  const keys = createKeyStore(deps.db, { clock });
  const limiter = createRateLimiter(deps.db, { limits: deps.config.tierLimits, clock });
  const errors = createErrorResponder({ realm: deps.config.realm, logger });
  // One group commit per state connection: counter upserts and audit rows share its transactions.
  const commits = createGroupCommit(deps.db);
  const cache = createObjectCache<ServedObject>({ maxBytes: deps.cacheBytes });
  const metrics = deps.metricsRegistry
    ? createProxyMetrics({ registry: deps.metricsRegistry, snapshots: deps.snapshots, cache, clock })
    : null;

  const routes = deps.routes ?? partnerRoutes();

  const app = new Hono<ProxyEnv>();
  app.use('*', createRequestId());
  app.route('/', createHealthRoutes(createReadiness({ snapshots: deps.snapshots, db: deps.db, commits, logger, clock })));
  app.use('*', createRequestTelemetry({ logger, metrics }));
  const routeDeps = createRouteDeps({
    snapshots: deps.snapshots, cache, searchIndexes: deps.searchIndexes, publicKey: deps.publicKey,
    admin: { keys, audit: createAuditReader(deps.db), clock },
    webhooks: { store: deps.webhooks?.store ?? createSqliteWebhookStore(deps.db, { clock }), allowLoopbackHttp: deps.webhooks?.allowLoopbackHttp === true, clock },
    document: () => buildOpenApiDocument(committedExamples(), routes),
  });
  app.route('/', tableRouter(documentTable(), routeDeps));
  const limit = createLimitStage(limiter, clock);
  app.use('*', createRequestPath({
    gate: createGate({ keys, config: deps.config, clock }),
    limit,
    audit: createAuditSettle({ writer: createAuditWriter(deps.db), limit, errors, commits, onWrite: metrics?.auditWrite }),
    clock,
  }));
  app.route('/', tableRouter(routes, routeDeps));
  app.notFound((c) => errors.respond(c, new CatalogError('not_found', 'No route matches this path.')));
  app.onError(errors.onError);
  return app;
}
