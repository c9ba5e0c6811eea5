/**
 * The audit stage of the request path on the fleet state (issue 18): what settle.ts does with one
 * SQLite transaction, done with ONE Redis script (state/fleet/limiter.ts) that counts the request in
 * its key's window and appends its audit entry to the stream, atomically, on whichever host answers.
 * The semantics are those of settle.ts:
 *   - a counted request within the limit: its row carries the answer's status, route and bytes, and
 *     the answer leaves with its RateLimit headers;
 *   - over the limit: the script itself rewrites the entry as the 429 (no route, no snapshot, the
 *     429's bytes), and the 429 replaces the answer; the key is remembered so that its next requests
 *     in the window stop before the route (limits/limit.ts);
 *   - a revoked or expired key's 401 is recorded, not counted (XADD only);
 *   - Redis down: the answer is dropped and the 503 `unavailable` (with Retry-After) replaces it,
 *     never an answer without its count and row.
 * The stream reaches PostgreSQL through the drainers (state/fleet/drainer.ts).
 */
import type { ErrorResponder } from '../errors.js';
import { presentedKeyOf } from '../gate/gate.js';
import { dropAnswer, type Answer, type Settle } from '../http/response-headers.js';
import type { RateDecision } from '../limits/counter.js';
import type { LimitStage } from '../limits/limit.js';
import type { FleetLimiter } from '../state/fleet/limiter.js';
import { auditEntryOf } from './settle.js';

export interface FleetAuditDeps {
  limiter: FleetLimiter;
  limit: LimitStage;
  errors: ErrorResponder;
  /** Told how long each script took, in seconds (the audit write latency metric). */
  onWrite?: (seconds: number) => void;
}

export function createFleetAuditSettle(deps: FleetAuditDeps): Settle {
  const { limiter, limit, errors, onWrite } = deps;
  return async (c, answer) => {
    const subject = presentedKeyOf(c);
    if (!subject) return answer;
    const entry = auditEntryOf(c, subject, answer);
    const marked = c.get('rateCount');
    const writeStarted = performance.now();
    let decision: RateDecision | null = null;
    try {
      if (marked === undefined) {
        await limiter.record(entry);
      } else {
        // The refusal's figures must be known before the script decides: the 429's length depends
        // only on the limit and the seconds to the window's end, which the limiter passes in.
        decision = await limiter.hit(marked, entry, (max, resetSeconds) => {
          const refused = errors.answer(c, limit.refusal({ limit: max, resetSeconds } as RateDecision));
          return { status: refused.status, bytes: refused.bytes };
        });
      }
    } catch (err) {
      limit.rolledBack(c);
      dropAnswer(answer);
      throw err;
    }
    onWrite?.((performance.now() - writeStarted) / 1000);
    if (decision === null) return answer;
    limit.apply(c, decision);
    limit.learned(c, decision);
    if (decision.allowed) return answer;
    dropAnswer(answer);
    return errors.answer(c, limit.refusal(decision)) satisfies Answer;
  };
}
