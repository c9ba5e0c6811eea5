/**
 * The limit stage of the request path (API.md §5), in the order it acts:
 *
 *   admit   before the route: a bearer request is marked to be counted in the window it arrived in,
 *           and refused at once (429) when this process already knows its key is over the limit in
 *           that window: counts only grow within a window, so the route's work would be thrown away.
 *   count   inside the audit commit (audit/settle.ts), once the answer exists: ONE upsert counts the
 *           request in the same transaction as its audit row, so the two never part, and a request
 *           waits for one commit instead of two (measured: about 20% more requests/s at 2 workers,
 *           docs/benchmarks.md). It puts the RateLimit headers among the request's shared headers.
 *   refusal the 429 that replaces an answer the count found over the limit (exact figures, Retry-After).
 *   learned after the commit: a key the count found over, or at its limit (its next request cannot
 *           be within it), is remembered, so its next requests in the window stop at `admit`.
 *
 * The count cannot move before the route: the audit row it commits with needs the answer's status
 * and length. Other caller kinds are not limited.
 */
import type { Context } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import type { ProxyEnv } from '../env.js';
import { responseHeadersOf } from '../http/response-headers.js';
import { windowStartOf, type RateDecision, type RateLimiter } from './counter.js';
import { rateLimitHeader, rateLimitPolicyHeader } from './headers.js';
import { createOverLimitMemo } from './over-limit.js';

export interface LimitStage {
  admit(c: Context<ProxyEnv>): void;
  /** Runs inside the commit; null when the request is not counted (not a bearer key that passed the gate). */
  count(c: Context<ProxyEnv>): RateDecision | null;
  /** Puts a decision's RateLimit headers among the request's shared headers (count does; the fleet's settle calls it). */
  apply(c: Context<ProxyEnv>, decision: RateDecision): void;
  refusal(decision: RateDecision): CatalogError;
  learned(c: Context<ProxyEnv>, decision: RateDecision): void;
  /** The commit failed and the count went with it: so do its headers. */
  rolledBack(c: Context<ProxyEnv>): void;
}

/**
 * `limiter` is the SQLite counter that `count` runs; the fleet state passes null, since its count is
 * the Redis script that also appends the audit entry (audit/fleet-settle.ts), and calls `apply`.
 */
export function createLimitStage(limiter: RateLimiter | null, clock: () => number): LimitStage {
  const overLimit = createOverLimitMemo();
  const apply = (c: Context<ProxyEnv>, decision: RateDecision) => {
    const shared = responseHeadersOf(c);
    shared['RateLimit-Policy'] = rateLimitPolicyHeader(decision);
    shared['RateLimit'] = rateLimitHeader(decision);
  };
  return {
    admit(c) {
      const auth = c.get('auth');
      if (auth?.kind !== 'bearer' || !auth.keyId || !auth.tier) return;
      // The arrival time the audit row is dated with (request-path.ts), not a second reading of the
      // clock: a key look-up between the two (a fleet round trip) could cross a window boundary, and
      // the request would be counted in one window and audited in the one before.
      const windowStart = windowStartOf(c.get('arrivedMs') ?? clock());
      c.set('rateCount', { keyId: auth.keyId, tier: auth.tier, windowStart });
      // A placeholder: `count` still counts this request and the 429 it answers has the exact figures.
      if (overLimit.isOver(auth.keyId, windowStart)) throw new CatalogError('rate_limited', 'This key is over its rate limit.');
    },
    count(c) {
      const marked = c.get('rateCount');
      if (marked === undefined) return null;
      if (limiter === null) throw new CatalogError('internal', 'this limit stage has no synchronous counter (the fleet state counts in its settle step)');
      const decision = limiter.hit(marked.keyId, marked.tier, marked.windowStart);
      apply(c, decision);
      return decision;
    },
    apply,
    refusal: (decision) => new CatalogError('rate_limited', `This key is over its limit of ${decision.limit} requests per minute; retry in ${decision.resetSeconds} s.`, { retryAfter: decision.resetSeconds }),
    learned(c, decision) {
      const marked = c.get('rateCount');
      if (marked !== undefined && decision.remaining === 0) overLimit.refused(marked.keyId, marked.windowStart);
    },
    rolledBack(c) {
      const shared = responseHeadersOf(c);
      delete shared['RateLimit-Policy'];
      delete shared['RateLimit'];
    },
  };
}
