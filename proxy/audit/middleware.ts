/**
 * Writes one audit row per bearer request, whatever its status (API.md §5). It wraps the gate,
 * the rate limit and the guards, so 401s of a known-but-revoked/expired key, 403, 405, 429 and
 * route errors all get their row; a key the store does not know gets none (it names no tenant).
 * The row is committed after the response is made and before it is handed to the server: the
 * middleware awaits the group commit (state/group-commit.ts) that carries the row, so rows of
 * requests finishing in the same event-loop turn share one transaction, and a failed commit fails
 * the request (503 state_unavailable) instead of answering it without its row (fail closed).
 */
import type { MiddlewareHandler } from 'hono';
import type { ProxyEnv } from '../env.js';
import type { GroupCommit } from '../state/group-commit.js';
import { redactKeys } from '../keys/format.js';
import { isStateUnavailable, rethrowStateFault } from '../state/state-fault.js';
import { presentedKeyOf } from '../gate/gate.js';
import { responseBytesOf } from '../http/response-headers.js';
import { UNMATCHED_ROUTE, type AuditEntry } from './row.js';
import type { AuditWriter } from './writer.js';

export function createAuditMiddleware(
  writer: AuditWriter,
  clock: () => number,
  commits: GroupCommit,
  /** Told how long each row's commit took, in seconds (the audit write latency metric). */
  onWrite?: (seconds: number) => void,
): MiddlewareHandler<ProxyEnv> {
  return async (c, next) => {
    const timestampMs = clock();
    const started = performance.now();
    await next();
    const subject = presentedKeyOf(c);
    if (!subject) return;
    // The state file already refused this request (its counter could not be written): the answer is
    // that 503, and trying the row too would wait out the busy timeout a second time for nothing.
    if (isStateUnavailable(c.error)) return;
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
    try {
      await commits.run(() => writer.record(entry));
    } catch (err) {
      // Fail closed: the answer that was made is dropped (a streamed body is cancelled) and the
      // error response replaces it. c.res is cleared first: Hono's setter would otherwise copy the
      // dropped answer's headers (Content-Encoding, ETag, Content-Length…) onto the error response.
      void c.res.body?.cancel().catch(() => undefined);
      c.res = undefined;
      rethrowStateFault(err);
    }
    onWrite?.((performance.now() - writeStarted) / 1000);
  };
}
