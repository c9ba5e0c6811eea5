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
 *
 * The state is either implementation of one interface (app-state.ts): the embedded SQLite file
 * (`db`, the default) or the fleet's PostgreSQL and Redis (`fleet`, issue 18); the stages above do
 * not know which.
 */
import type { KeyObject } from 'node:crypto';
import { Hono } from 'hono';
import type { Registry } from 'prom-client';
import { CatalogError } from '../snapshots/errors.js';
import { fleetAppState, sqliteAppState } from './app-state.js';
import type { SnapshotSource } from '../snapshots/store/types.js';
import type { ProxyConfig } from './config.js';
import type { ProxyEnv } from './env.js';
import { createErrorResponder } from './errors.js';
import { createGate } from './gate/gate.js';
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
import type { FleetState } from './state/fleet/open-fleet.js';
import type { StateDb } from './state/open.js';
import type { SearchIndexCache } from './search/index-cache.js';
import { createPostgresWebhookStore } from './webhooks/postgres-store.js';
import { createSqliteWebhookStore } from './webhooks/sqlite-store.js';
import type { WebhookDeps } from './webhooks/deps.js';
import type { WebhookStore } from './webhooks/store.js';

export interface AppDeps {
  /** The embedded SQLite state (the default)… */
  db?: StateDb;
  /** … or the fleet state (PostgreSQL + Redis, state/fleet/open-fleet.ts); exactly one of the two. */
  fleet?: FleetState;
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
  /** Webhook endpoints and deliveries (default: on the state, `db` or `fleet`); `allowLoopbackHttp` from CATALOG_WEBHOOKS_ALLOW_LOOPBACK_HTTP. */
  webhooks?: { store?: WebhookStore; allowLoopbackHttp?: boolean };
}

export function createApp(deps: AppDeps): Hono<ProxyEnv> {
  const clock = deps.clock ?? Date.now;
  const logger = deps.logger ?? defaultLogger();
  const errors = createErrorResponder({ realm: deps.config.realm, logger });
  const stateOptions = { limits: deps.config.tierLimits, clock };
  if ((deps.db === undefined) === (deps.fleet === undefined)) throw new CatalogError('internal', 'createApp needs exactly one state: db (SQLite) or fleet');
  const state = deps.fleet ? fleetAppState(deps.fleet, stateOptions) : sqliteAppState(deps.db!, stateOptions);
  const cache = createObjectCache<ServedObject>({ maxBytes: deps.cacheBytes });
  const metrics = deps.metricsRegistry
    ? createProxyMetrics({ registry: deps.metricsRegistry, snapshots: deps.snapshots, cache, clock })
    : null;

  const routes = deps.routes ?? partnerRoutes();

  const app = new Hono<ProxyEnv>();
  app.use('*', createRequestId());
  app.route('/', createHealthRoutes(createReadiness({ snapshots: deps.snapshots, probeState: state.probe, logger })));
  app.use('*', createRequestTelemetry({ logger, metrics }));
  const routeDeps = createRouteDeps({
    snapshots: deps.snapshots, cache, searchIndexes: deps.searchIndexes, publicKey: deps.publicKey,
    admin: { keys: state.keys, audit: state.audit, clock },
    webhooks: webhookDeps(deps, clock),
    document: () => buildOpenApiDocument(committedExamples(), routes),
  });
  app.route('/', tableRouter(documentTable(), routeDeps));
  app.use('*', createRequestPath({
    gate: createGate({ keys: state.keys, config: deps.config, clock }),
    limit: state.limit,
    audit: state.settle({ errors, onWrite: metrics?.auditWrite }),
    clock,
  }));
  app.route('/', tableRouter(routes, routeDeps));
  app.notFound((c) => errors.respond(c, new CatalogError('not_found', 'No route matches this path.')));
  app.onError(errors.onError);
  return app;
}

/** The webhook routes' store: the one given, else the state's own (the SQLite file's, or the fleet's PostgreSQL). */
function webhookDeps(deps: AppDeps, clock: () => number): WebhookDeps {
  const store = deps.webhooks?.store ?? webhookStoreOf(deps, { clock });
  return { store, allowLoopbackHttp: deps.webhooks?.allowLoopbackHttp === true, clock };
}

/** The webhook store on the state an app or a server process is given (exactly one of the two). */
export function webhookStoreOf(state: { db?: StateDb; fleet?: FleetState }, options: { clock?: () => number } = {}): WebhookStore {
  return state.fleet ? createPostgresWebhookStore(state.fleet.pg, options) : createSqliteWebhookStore(state.db!, options);
}
