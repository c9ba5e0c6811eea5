/**
 * The state a serving process opens (serve-in-process.ts), by its location (state/state-location.ts):
 *   sqlite  the state file, the hourly audit pruning, and (single process) the WAL checkpoints
 *   fleet   this process's PostgreSQL pool and Redis clients, migrated at start (safe from every
 *           host at once), its key-change subscription and audit drainer (state/fleet/open-fleet.ts),
 *           and the hourly pruning of PostgreSQL's audit rows
 * and closes it after the server drained. Nothing of the fleet state touches a local file.
 */
import { startAsyncRetention, startAuditRetention } from '../audit/retention.js';
import { createPostgresAuditPruner } from '../state/fleet/audit-store.js';
import { openFleetState, type FleetState } from '../state/fleet/open-fleet.js';
import { SERVING_AUTOCHECKPOINT_PAGES, startCheckpoints } from '../state/checkpoints.js';
import { openStateDb, type StateDb } from '../state/open.js';
import type { StateLocation } from '../state/state-location.js';
import { firstLine } from './server-process.js';

export interface ServingState {
  /** What createApp takes: `db` or `fleet`. */
  app: { db: StateDb } | { fleet: FleetState };
  /** Starts the timers (audit pruning, checkpoints) once the process serves. */
  startTimers(): void;
  close(): Promise<void>;
}

export async function openServingState(
  location: StateLocation,
  options: { role: 'single' | 'worker'; retentionDays: number; log: (line: string) => void },
): Promise<ServingState> {
  const { log } = options;
  const onPruneError = (err: unknown) => log(`catalog serve: audit pruning failed: ${firstLine(err)}`);
  if (location.kind === 'fleet') {
    let lastError = '';
    const fleet = await openFleetState({
      postgres: location.postgres, redis: location.redis, prefix: location.prefix, serving: true,
      // Connection errors repeat on every reconnect attempt: one line per change of message.
      onError: (err) => {
        const line = firstLine(err);
        if (line !== lastError) log(`catalog serve: fleet state: ${line}`);
        lastError = line;
      },
    });
    let retention: { stop(): void } | null = null;
    return {
      app: { fleet },
      startTimers() {
        const pruner = createPostgresAuditPruner(fleet.pg, { retentionDays: options.retentionDays });
        retention = startAsyncRetention(() => pruner.prune(), { onError: onPruneError });
      },
      async close() {
        retention?.stop();
        await fleet.close();
      },
    };
  }
  const state = openStateDb(location.file, { walAutocheckpointPages: SERVING_AUTOCHECKPOINT_PAGES });
  const timers: { stop(): void }[] = [];
  return {
    app: { db: state },
    startTimers() {
      // Every process prunes old audit rows (a DELETE of expired rows is idempotent, so N workers
      // doing it hourly is harmless) and the timer is unref'd so it never keeps a stopping worker alive.
      timers.push(startAuditRetention({ state, retentionDays: options.retentionDays, onError: onPruneError }));
      // Checkpoints run on a timer, never inside a request (state/checkpoints.ts); in a cluster the
      // primary runs them, so a worker only ever checkpoints as the 64 MiB backstop.
      if (options.role === 'single') timers.push(startCheckpoints({ state, onError: (err) => log(`catalog serve: WAL checkpoint failed: ${firstLine(err)}`) }));
    },
    async close() {
      for (const t of timers) t.stop();
      state.close();
    },
  };
}
