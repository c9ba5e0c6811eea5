/**
 * Writes one audit row per bearer request, whatever its status (API.md §5), and counts the request
 * against its key's rate limit in the same commit. It wraps the gate, the rate-limit mark and the
 * guards, so 401s of a known-but-revoked/expired key, 403, 405, 429 and route errors all get their
 * row; a key the store does not know gets none (it names no tenant).
 *
 * Once the answer exists, ONE group-committed operation (state/group-commit.ts) counts the request
 * (when limits/middleware.ts marked it) and inserts its row; rows and counts of requests finishing
 * in the same event-loop turn share one transaction. The count decides before anything is sent:
 * within the limit, the answer leaves with its RateLimit headers; over it, the answer is dropped and
 * the 429 (with Retry-After) replaces it, and the row records the 429 as answered by no route, with
 * no snapshot, as when the limit refused it before routing. A failed commit fails the request
 * (503 state_unavailable) instead of answering it uncounted or without its row (fail closed).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import type { ProxyEnv } from '../env.js';
import type { ErrorResponder } from '../errors.js';
import type { GroupCommit } from '../state/group-commit.js';
import { redactKeys } from '../keys/format.js';
import { isStateUnavailable, rethrowStateFault } from '../state/state-fault.js';
import { presentedKeyOf } from '../gate/gate.js';
import { responseBytesOf, responseHeadersOf } from '../http/response-headers.js';
import type { RateLimiter } from '../limits/counter.js';
import { rateLimitHeader, rateLimitPolicyHeader } from '../limits/headers.js';
import type { OverLimitMemo } from '../limits/over-limit.js';
import { UNMATCHED_ROUTE, type AuditEntry } from './row.js';
import type { AuditWriter } from './writer.js';

export interface AuditDeps {
  writer: AuditWriter;
  limiter: RateLimiter;
  overLimit: OverLimitMemo;
  /** Renders the 429 that replaces an answer over the limit. */
  errors: ErrorResponder;
  clock: () => number;
  commits: GroupCommit;
  /** Told how long each row's commit took, in seconds (the audit write latency metric). */
  onWrite?: (seconds: number) => void;
}

export function createAuditMiddleware(deps: AuditDeps): MiddlewareHandler<ProxyEnv> {
  const { writer, limiter, overLimit, errors, clock, commits, onWrite } = deps;
  return async (c, next) => {
    const timestampMs = clock();
    const started = performance.now();
    await next();
    const subject = presentedKeyOf(c);
    if (!subject) return;
    // The state file already refused this request (its key could not be read): the answer is that
    // 503, and trying the row too would wait out the busy timeout a second time for nothing.
    if (isStateUnavailable(c.error)) return;
    const count = c.get('rateCount');
    const entry: AuditEntry = {
      apiKeyId: subject.keyId,
      tenantName: subject.tenant,
      route: c.get('routePattern') ?? UNMATCHED_ROUTE,
      status: c.res.status,
      timestampMs,
      requestId: c.get('requestId'),
      // A key pasted into the path is not stored (only its public key ID is).
      path: redactKeys(c.req.path),
      bytes: responseBytesOf(c),
      durationMs: performance.now() - started,
      snapshotId: c.get('snapshotId') ?? null,
    };
    const writeStarted = performance.now();
    let refusal: Response | null = null;
    try {
      // Synchronous inside the transaction: the count and the row commit together or not at all.
      await commits.run(() => {
        if (count !== undefined) {
          const decision = limiter.hit(count.keyId, count.tier, count.windowStart);
          const shared = responseHeadersOf(c);
          shared['RateLimit-Policy'] = rateLimitPolicyHeader(decision);
          shared['RateLimit'] = rateLimitHeader(decision);
          if (!decision.allowed) {
            refusal = errors.respond(c, new CatalogError('rate_limited', `This key is over its limit of ${decision.limit} requests per minute; retry in ${decision.resetSeconds} s.`, { retryAfter: decision.resetSeconds }));
            entry.status = refusal.status;
            entry.route = UNMATCHED_ROUTE;
            entry.snapshotId = null;
            entry.bytes = c.get('responseBytes') ?? null;
          }
        }
        writer.record(entry);
      });
    } catch (err) {
      // Fail closed: the answer that was made is dropped and the error response replaces it; the
      // counter was rolled back with the row, so its headers go too.
      const shared = responseHeadersOf(c);
      delete shared['RateLimit-Policy'];
      delete shared['RateLimit'];
      dropAnswer(c);
      rethrowStateFault(err);
    }
    onWrite?.((performance.now() - writeStarted) / 1000);
    if (refusal !== null && count !== undefined) {
      overLimit.refused(count.keyId, count.windowStart);
      dropAnswer(c);
      c.res = refusal;
    }
  };
}

/**
 * Drops the answer the app made (a streamed body is cancelled). c.res is cleared first: Hono's setter
 * would otherwise copy the dropped answer's headers (Content-Encoding, ETag, Content-Length…) onto
 * the response that replaces it.
 */
function dropAnswer(c: Context<ProxyEnv>): void {
  void c.res.body?.cancel().catch(() => undefined);
  c.res = undefined;
}
