/**
 * Audit retention: rows older than CATALOG_AUDIT_RETENTION_DAYS are deleted when the server starts
 * and then every hour. The server's main calls `startAuditRetention`; nothing runs at import, and
 * the timer is unref'd so it never keeps a process alive.
 *
 * @example
 *   const retention = startAuditRetention({ state, retentionDays: config.auditRetentionDays });
 *   // on shutdown:
 *   retention.stop();
 */
import { MS_PER_DAY } from '../../snapshots/dates.js';
import type { StateDb } from '../state/open.js';

// Deleting in batches lets other processes take the write lock between them, so a large first
// prune does not stall requests (each of which writes a counter and an audit row).
const BATCH = 5000;

export const AUDIT_PRUNE_SQL = `DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE ts_ms < ? LIMIT ${BATCH})`;

export interface AuditPruner {
  /** Deletes rows older than the retention; returns how many went. */
  prune(): number;
}

export function createAuditPruner(state: StateDb, options: { retentionDays: number; clock?: () => number }): AuditPruner {
  const clock = options.clock ?? Date.now;
  const statement = state.sqlite.prepare<[number]>(AUDIT_PRUNE_SQL);
  return {
    prune() {
      const cutoff = clock() - options.retentionDays * MS_PER_DAY;
      let total = 0;
      for (;;) {
        const { changes } = statement.run(cutoff);
        total += changes;
        if (changes < BATCH) return total;
      }
    },
  };
}

export interface RetentionOptions {
  state: StateDb;
  retentionDays: number;
  clock?: () => number;
  intervalMs?: number;
  /** Told about failures (a locked file, a closed database) instead of throwing from a timer. */
  onError?: (err: unknown) => void;
}

export function startAuditRetention(options: RetentionOptions): { stop(): void; prune(): number } {
  const pruner = createAuditPruner(options.state, options);
  const run = () => {
    try {
      return pruner.prune();
    } catch (err) {
      options.onError?.(err);
      return 0;
    }
  };
  run();
  return { stop: everyInterval(run, options.intervalMs), prune: run };
}

/**
 * The same timer for a pruner across the network (the fleet's PostgreSQL one,
 * state/fleet/audit-store.ts): every host runs it, and a DELETE of expired rows is idempotent.
 */
export function startAsyncRetention(prune: () => Promise<number>, options: Pick<RetentionOptions, 'intervalMs' | 'onError'>): { stop(): void; prune(): Promise<number> } {
  const run = () => prune().catch((err: unknown) => {
    options.onError?.(err);
    return 0;
  });
  void run();
  return { stop: everyInterval(() => void run(), options.intervalMs), prune: run };
}

/** An unref'd interval (hourly by default) that never keeps a stopping process alive; returns its stop. */
function everyInterval(run: () => unknown, intervalMs = 3_600_000): () => void {
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
