/**
 * Counts every request of a bearer key (whatever it is answered with) and puts the rate-limit
 * headers on every bearer response, errors and 429 included. Other caller kinds are not limited.
 */
import type { MiddlewareHandler } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import type { ProxyEnv } from '../env.js';
import type { RateLimiter } from './counter.js';
import { rateLimitHeader, rateLimitPolicyHeader } from './headers.js';

export function createRateLimit(limiter: RateLimiter): MiddlewareHandler<ProxyEnv> {
  return async (c, next) => {
    const auth = c.get('auth');
    if (auth?.kind !== 'bearer' || !auth.keyId || !auth.tier) return next();
    const decision = limiter.hit(auth.keyId, auth.tier);
    const policy = rateLimitPolicyHeader(decision);
    const state = rateLimitHeader(decision);
    c.header('RateLimit-Policy', policy);
    c.header('RateLimit', state);
    if (!decision.allowed) {
      throw new CatalogError('rate_limited', `This key is over its limit of ${decision.limit} requests per minute; retry in ${decision.resetSeconds} s.`, { retryAfter: decision.resetSeconds });
    }
    await next();
    // A route that returned a Response of its own did not get the prepared headers.
    if (!c.res.headers.has('RateLimit')) {
      c.header('RateLimit-Policy', policy);
      c.header('RateLimit', state);
    }
  };
}
