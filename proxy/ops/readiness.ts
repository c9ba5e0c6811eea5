/**
 * Readiness (`GET /readyz`): the process can answer partners right now, which needs both halves of
 * a request's work: a published snapshot to read (the `current` pointer names one, and the store
 * it lives in can be read: an object store that cannot be reached is `snapshots_unreadable`) and a
 * state that takes writes (every bearer request commits a rate-counter upsert and an audit row).
 * The write is real: on the SQLite state one row rewritten in `readiness_probe`, through the same
 * group commit as the requests' writes, so a read-only mount, a full disk or a lock held past
 * busy_timeout all show; on the fleet state a write to Redis and a commit in PostgreSQL
 * (state/fleet/probe.ts), so a host whose Redis or PostgreSQL is down is drained by the balancer.
 *
 * The reason is logged (on a change of state only, so a probe every second does not flood the
 * log); the HTTP answer carries none (health-routes.ts).
 *
 * @example
 *   const readiness = createReadiness({ snapshots, probeState: sqliteStateProbe(db, commits), logger });
 *   const r = await readiness.check();   // { ready: false, reason: 'no_snapshot' } before the first publish
 */
import type { SnapshotSource } from '../../snapshots/store/types.js';
import type { ProxyLogger } from '../logger.js';
import type { GroupCommit } from '../state/group-commit.js';
import type { StateDb } from '../state/open.js';

export type NotReadyReason = 'no_snapshot' | 'snapshots_unreadable' | 'state_not_writable';
export type ReadinessResult = { ready: true } | { ready: false; reason: NotReadyReason };

export interface Readiness {
  check(): Promise<ReadinessResult>;
}

export interface ReadinessDeps {
  snapshots: SnapshotSource;
  /** Resolves when the state took a write; rejects (with the reason for the log) when it cannot. */
  probeState: () => Promise<unknown>;
  logger: ProxyLogger;
}

const firstLine = (err: unknown): string => {
  const line = (err instanceof Error ? err.message : String(err)).split('\n', 1)[0];
  // A store's failure is wrapped in a message fit for partners; the operator needs its cause.
  return err instanceof Error && err.cause !== undefined ? `${line} (${firstLine(err.cause)})` : line;
};

/** The SQLite state's probe: one row rewritten through the requests' group commit. */
export function sqliteStateProbe(db: StateDb, commits: GroupCommit, clock: () => number = Date.now): () => Promise<unknown> {
  // Prepared on first use, not here: a state file that cannot even prepare it is "not writable".
  let probe: { run(ms: number): unknown } | null = null;
  const write = () => {
    probe ??= db.sqlite.prepare(
      'INSERT INTO readiness_probe (id, checked_ms) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET checked_ms = excluded.checked_ms',
    );
    probe.run(clock());
  };
  return () => commits.run(write);
}

export function createReadiness(deps: ReadinessDeps): Readiness {
  let last: string | null = null;

  const report = (result: ReadinessResult, detail: string | null) => {
    const state = result.ready ? 'ready' : result.reason;
    if (state === last) return;
    const first = last === null;
    last = state;
    if (!result.ready) deps.logger.error('not ready', { reason: result.reason, ...(detail ? { detail } : {}) });
    else if (!first) deps.logger.info('ready again', {});
  };

  return {
    async check() {
      let snapshot = false;
      try {
        snapshot = (await deps.snapshots.current()) !== null;
      } catch (err) {
        // The pointer or the snapshot's files cannot be read (an object store down, refused
        // credentials, a corrupt pointer): the detail says which.
        const result: ReadinessResult = { ready: false, reason: 'snapshots_unreadable' };
        report(result, firstLine(err));
        return result;
      }
      if (!snapshot) {
        const result: ReadinessResult = { ready: false, reason: 'no_snapshot' };
        report(result, null);
        return result;
      }
      try {
        await deps.probeState();
      } catch (err) {
        const result: ReadinessResult = { ready: false, reason: 'state_not_writable' };
        report(result, firstLine(err));
        return result;
      }
      const result: ReadinessResult = { ready: true };
      report(result, null);
      return result;
    },
  };
}
