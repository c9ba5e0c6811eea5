/**
 * WAL checkpoints on a timer, off the request path. With SQLite's default `wal_autocheckpoint`, the
 * commit that pushes the WAL past 1000 pages runs the checkpoint itself, inside a request: about
 * every 250 requests one of them paid 5-10 ms (docs/benchmarks.md, "Where the proxy's time goes").
 * Serving processes therefore open the state file with a high autocheckpoint (only a backstop, see
 * SERVING_AUTOCHECKPOINT_PAGES) and one process runs `wal_checkpoint(PASSIVE)` every `intervalMs`:
 * the cluster primary, which serves no request, or the single serving process.
 *
 * PASSIVE never waits for a lock and never blocks writers; it copies what is already in the WAL into
 * the database file. The next writer after a complete checkpoint restarts the WAL from its start, so
 * the WAL stays around what is written in one interval (and journal_size_limit cuts the file back).
 *
 * @example
 *   const checkpoints = startCheckpoints({ state, intervalMs: 250 });
 *   // on shutdown:
 *   checkpoints.stop();
 */
import type { StateDb } from './open.js';

export const CHECKPOINT_INTERVAL_MS = 250;

/**
 * `wal_autocheckpoint` of serving connections: 16,384 pages (64 MiB at 4 KiB pages). With the timer
 * running, the WAL restarts long before this; if the timer's process is gone or stalled, a serving
 * process checkpoints by itself here, so the WAL stays bounded whatever happens.
 */
export const SERVING_AUTOCHECKPOINT_PAGES = 16_384;

export interface CheckpointResult {
  /** 1 when a checkpoint could not run to completion because another connection held a lock. */
  busy: number;
  /** Frames in the WAL, and how many of them are now in the database file. */
  log: number;
  checkpointed: number;
}

export interface Checkpoints {
  /** Runs one PASSIVE checkpoint now. */
  run(): CheckpointResult;
  stop(): void;
}

export function startCheckpoints(options: {
  state: StateDb;
  intervalMs?: number;
  /** Told about failures (a closed database, an I/O error) instead of throwing from a timer. */
  onError?: (err: unknown) => void;
}): Checkpoints {
  const intervalMs = options.intervalMs ?? CHECKPOINT_INTERVAL_MS;
  const statement = options.state.sqlite.prepare<[], CheckpointResult>('PRAGMA wal_checkpoint(PASSIVE)');
  const run = () => statement.get()!;
  const timer = setInterval(() => {
    try {
      run();
    } catch (err) {
      options.onError?.(err);
    }
  }, intervalMs);
  timer.unref();
  return { run, stop: () => clearInterval(timer) };
}
