/**
 * The audit stage of the request path: one row per bearer request, whatever its status (API.md §5),
 * committed together with the request's rate-limit count before the answer leaves. It runs when
 * the answer exists (http/response-headers.ts hands every answer here before making the Response),
 * so 401s of a known-but-revoked/expired key, 403, 405, 429 and route errors all get their row; a
 * key the store does not know gets none (it names no tenant).
 *
 * ONE group-committed operation (state/group-commit.ts) counts the request (limits/limit.ts) and
 * inserts its row; rows and counts of requests answered in the same event-loop turn share one
 * transaction. The count decides before anything is sent: within the limit, the answer leaves with
 * its RateLimit headers; over it, the answer is dropped and the 429 (with Retry-After) replaces it,
 * and the row records the 429 as answered by no route, with no snapshot, as when the limit refused
 * it before routing. A failed commit fails the request (503 state_unavailable) instead of answering
 * it uncounted or without its row (fail closed).
 */
import type { ErrorResponder } from '../errors.js';
import type { Context } from 'hono';
import type { ProxyEnv } from '../env.js';
import { presentedKeyOf, type RejectedKey } from '../gate/gate.js';
import { dropAnswer, type Answer, type Settle } from '../http/response-headers.js';
import { redactKeys } from '../keys/format.js';
import type { RateDecision } from '../limits/counter.js';
import type { LimitStage } from '../limits/limit.js';
import type { GroupCommit } from '../state/group-commit.js';
import { isStateUnavailable, rethrowStateFault } from '../state/state-fault.js';
import { UNMATCHED_ROUTE, type AuditEntry } from './row.js';
import type { AuditWriter } from './writer.js';

export interface AuditDeps {
  writer: AuditWriter;
  limit: LimitStage;
  /** Makes the 429 that replaces an answer over the limit. */
  errors: ErrorResponder;
  commits: GroupCommit;
  /** Told how long each row's commit took, in seconds (the audit write latency metric). */
  onWrite?: (seconds: number) => void;
}

/** The audit row of an answer to the key `subject` presented (the fleet's settle builds the same). */
export function auditEntryOf(c: Context<ProxyEnv>, subject: RejectedKey, answer: Answer): AuditEntry {
  return {
    apiKeyId: subject.keyId,
    tenantName: subject.tenant,
    route: c.get('routePattern') ?? UNMATCHED_ROUTE,
    status: answer.status,
    timestampMs: c.get('arrivedMs'),
    requestId: c.get('requestId'),
    // A key pasted into the path is not stored (only its public key ID is).
    path: redactKeys(c.req.path),
    bytes: answer.bytes,
    durationMs: performance.now() - c.get('arrivedAt'),
    snapshotId: c.get('snapshotId') ?? null,
  };
}

export function createAuditSettle(deps: AuditDeps): Settle {
  const { writer, limit, errors, commits, onWrite } = deps;
  return async (c, answer) => {
    const subject = presentedKeyOf(c);
    if (!subject) return answer;
    // The state file already refused this request (its key could not be read): the answer is that
    // 503, and trying the row too would wait out the busy timeout a second time for nothing.
    if (isStateUnavailable(c.error)) return answer;
    const entry = auditEntryOf(c, subject, answer);
    const writeStarted = performance.now();
    let sent: Answer = answer;
    // Assigned inside the transaction (the cast keeps TypeScript from narrowing it to null here).
    let decision = null as RateDecision | null;
    try {
      // Synchronous inside the transaction: the count and the row commit together or not at all.
      await commits.run(() => {
        decision = limit.count(c);
        if (decision !== null && !decision.allowed) {
          sent = errors.answer(c, limit.refusal(decision));
          entry.status = sent.status;
          entry.route = UNMATCHED_ROUTE;
          entry.snapshotId = null;
          entry.bytes = sent.bytes;
        }
        writer.record(entry);
      });
    } catch (err) {
      // Fail closed: the answer that was made is dropped and the error answer replaces it.
      limit.rolledBack(c);
      dropAnswer(answer);
      rethrowStateFault(err);
    }
    onWrite?.((performance.now() - writeStarted) / 1000);
    if (decision !== null) limit.learned(c, decision);
    if (sent !== answer) dropAnswer(answer);
    return sent;
  };
}
