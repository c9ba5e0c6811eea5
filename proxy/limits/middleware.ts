/**
 * Marks every request of a bearer key to be counted (whatever it is answered with), in the window it
 * arrived in. The count itself runs in the audit middleware's commit (audit/middleware.ts): the
 * counter upsert and the audit row of a request share one transaction, taken once its answer
 * exists, so a request waits for one commit instead of two (measured: about 20% more requests/s
 * at 2 workers, docs/benchmarks.md). When that count says the key is over its limit, the answer is
 * replaced by the 429 before it leaves; the routes' work is done only by requests that race the
 * limit, because a key this process saw refused in the current window is refused here, before the
 * routes, for the rest of the window. Other caller kinds are not limited.
 */
import type { MiddlewareHandler } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import type { ProxyEnv } from '../env.js';
import { windowStartOf } from './counter.js';
import type { OverLimitMemo } from './over-limit.js';

export function createRateLimit(overLimit: OverLimitMemo, clock: () => number): MiddlewareHandler<ProxyEnv> {
  return async (c, next) => {
    const auth = c.get('auth');
    if (auth?.kind !== 'bearer' || !auth.keyId || !auth.tier) return next();
    const windowStart = windowStartOf(clock());
    c.set('rateCount', { keyId: auth.keyId, tier: auth.tier, windowStart });
    // The audit middleware counts it and answers the 429 with the exact RateLimit figures.
    if (overLimit.isOver(auth.keyId, windowStart)) throw new CatalogError('rate_limited', 'This key is over its rate limit.');
    await next();
  };
}
