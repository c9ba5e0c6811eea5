/**
 * The way every request to the API goes, top to bottom, each stage in its folder:
 *
 *   1. headers   http/request-id.ts    an id for the request, and the plain object of headers every
 *                                      response of it carries (X-Request-Id; later RateLimit)
 *   2. gate      gate/gate.ts          who is calling: 404 outside /v1, 401 without a valid credential
 *   3. limit     limits/limit.ts       a bearer request is marked to be counted; a key known to be
 *                                      over its limit in this window is 429 here, before the route
 *   4. gate      gate/gate.ts          what that caller may do: 403 (family), 405 (method)
 *   5. route     route-table/          the answer (or an error, whose answer errors.ts makes)
 *   6. audit     audit/settle.ts       the answer's audit row and the request's count commit together
 *                (fleet-settle.ts)     (SQLite: one transaction; fleet: one Redis script); over the
 *                                      limit, the 429 replaces the answer
 *   7. headers   http/response-headers.ts   the Response, built once, with every shared header
 *
 * Stages 6 and 7 run where every answer is sent (`respond`/`send` in http/response-headers.ts,
 * which the routes and the error responder call), so the request's `settle` step is handed over
 * here; it runs once per request, also for the 401, 403, 405 and 429 thrown by stages 2-4.
 */
import type { MiddlewareHandler } from 'hono';
import type { ProxyEnv } from './env.js';
import type { Gate } from './gate/gate.js';
import type { Settle } from './http/response-headers.js';
import type { LimitStage } from './limits/limit.js';

export interface RequestPath {
  gate: Gate;
  limit: LimitStage;
  audit: Settle;
  clock: () => number;
}

export function createRequestPath(stages: RequestPath): MiddlewareHandler<ProxyEnv> {
  const { gate, limit, audit, clock } = stages;
  return async (c, next) => {
    c.set('arrivedMs', clock());
    c.set('arrivedAt', performance.now());
    c.set('settle', audit);
    // A promise only for a fleet key lookup (gate.ts): the SQLite path stays free of an await here.
    const identified = gate.identify(c);
    if (identified !== undefined) await identified;
    limit.admit(c);
    gate.authorize(c);
    await next();
  };
}
