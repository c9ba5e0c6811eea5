/**
 * Counts every request of a bearer key (whatever it is answered with) and puts the rate-limit
 * headers on every bearer response, errors and 429 included. Other caller kinds are not limited.
 * The upsert runs in the state file's group commit (state/group-commit.ts): still one atomic
 * statement inside a write transaction, so the count is exact across workers, but one commit is
 * shared by every request counted in the same event-loop turn.
 */
import type { MiddlewareHandler } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import type { ProxyEnv } from '../env.js';
import { responseHeadersOf } from '../http/response-headers.js';
import type { GroupCommit } from '../state/group-commit.js';
import { rethrowStateFault } from '../state/state-fault.js';
import type { RateLimiter } from './counter.js';
import { rateLimitHeader, rateLimitPolicyHeader } from './headers.js';

export function createRateLimit(limiter: RateLimiter, commits: GroupCommit): MiddlewareHandler<ProxyEnv> {
  return async (c, next) => {
    const auth = c.get('auth');
    if (auth?.kind !== 'bearer' || !auth.keyId || !auth.tier) return next();
    const { keyId, tier } = auth;
    // A state file that cannot count the request fails it (503 state_unavailable): never unlimited.
    const decision = await commits.run(() => limiter.hit(keyId, tier)).catch(rethrowStateFault);
    // Into the request's shared headers, so every answer carries them, errors and 429 included
    // (the request-id middleware adds them to responses not built through respond()).
    const headers = responseHeadersOf(c);
    headers['RateLimit-Policy'] = rateLimitPolicyHeader(decision);
    headers['RateLimit'] = rateLimitHeader(decision);
    if (!decision.allowed) {
      throw new CatalogError('rate_limited', `This key is over its limit of ${decision.limit} requests per minute; retry in ${decision.resetSeconds} s.`, { retryAfter: decision.resetSeconds });
    }
    await next();
  };
}
