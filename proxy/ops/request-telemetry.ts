/**
 * One log line and one metrics sample per request, taken outside everything else (the audit commit
 * included), so `durationMs` is the time the server held the request.
 *
 * The line names the route pattern, never the raw path (ids and search text stay out of the log),
 * and the key by its public ID and tenant, never the key itself. The pattern is the route's own
 * (`routePattern`, set by the handler) or, for a request refused before routing (401, 403, 429), the
 * pattern of the route its path and method match (Hono's matched routes), so refusals count against
 * the route they aimed at; `(unmatched)` when no route matches. (The audit row keeps `(unmatched)`
 * for those: it records which route answered, docs/auth.md.) Its fields, in this order:
 * requestId, method, route, status, bytes (null when streamed), durationMs, keyId and tenant (null
 * unless a bearer key was presented that the store knows), snapshotId (null when no snapshot was read).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { UNMATCHED_ROUTE } from '../audit/row.js';
import type { ProxyEnv } from '../env.js';
import { presentedKeyOf } from '../gate/gate.js';
import { responseBytesOf } from '../http/response-headers.js';
import type { ProxyLogger } from '../logger.js';
import type { ProxyMetrics } from './metrics.js';

export const REQUEST_LOG_MESSAGE = 'request';

/** Route middleware is registered for every method as `ALL`; a route handler has its own method. */
function routeOf(c: Context<ProxyEnv>): string {
  const answered = c.get('routePattern');
  if (answered !== undefined) return answered;
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) if (routes[i].method !== 'ALL') return routes[i].path;
  return UNMATCHED_ROUTE;
}

export function createRequestTelemetry(deps: { logger: ProxyLogger; metrics: ProxyMetrics | null }): MiddlewareHandler<ProxyEnv> {
  const { logger, metrics } = deps;
  return async (c, next) => {
    const started = performance.now();
    await next();
    const ms = performance.now() - started;
    const route = routeOf(c);
    const status = c.res.status;
    const key = presentedKeyOf(c);
    logger.info(REQUEST_LOG_MESSAGE, {
      requestId: c.get('requestId'),
      method: c.req.method,
      route,
      status,
      bytes: responseBytesOf(c),
      durationMs: Math.round(ms * 1000) / 1000,
      keyId: key?.keyId ?? null,
      tenant: key?.tenant ?? null,
      snapshotId: c.get('snapshotId') ?? null,
    });
    metrics?.request(route, status, ms / 1000);
  };
}
