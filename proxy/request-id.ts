/**
 * Gives every request an id (a random UUID) and sends it as `X-Request-Id` on every response,
 * errors included, so a partner's report can be matched to the audit row and the server log.
 * An id sent by the client is not reused: it would let a caller forge or collide log entries.
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { ProxyEnv } from './env.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';

export function createRequestId(generate: () => string = randomUUID): MiddlewareHandler<ProxyEnv> {
  return async (c, next) => {
    const id = generate();
    c.set('requestId', id);
    c.header(REQUEST_ID_HEADER, id);
    await next();
    // A handler may have returned a Response built without the prepared headers; c.header copies
    // an immutable Response when needed.
    if (!c.res.headers.has(REQUEST_ID_HEADER)) c.header(REQUEST_ID_HEADER, id);
  };
}
