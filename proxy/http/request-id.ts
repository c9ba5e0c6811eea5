/**
 * The first stage of the request path (request-path.ts): gives every request an id (a random UUID)
 * and sends it as `X-Request-Id` on every response, errors included, so a partner's report can be
 * matched to the audit row and the server log. An id sent by the client is not reused: it would
 * let a caller forge or collide log entries. The id starts the request's shared headers
 * (response-headers.ts), which every response is built with.
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { ProxyEnv } from '../env.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';

export function createRequestId(generate: () => string = randomUUID): MiddlewareHandler<ProxyEnv> {
  return async (c, next) => {
    const id = generate();
    c.set('requestId', id);
    // A plain object, not c.header(): see response-headers.ts for why.
    c.set('responseHeaders', { [REQUEST_ID_HEADER]: id });
    await next();
  };
}
