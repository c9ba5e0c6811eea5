/**
 * The node:cluster primary of `--workers N > 1`: checks the config and migrates the state once,
 * forks the workers (they share the port and, on the SQLite state, the state file), restarts one that
 * dies, runs the WAL checkpoints and the admin port for all of them, and forwards SIGTERM/SIGINT. It
 * serves no request. On the fleet state each worker opens its own PostgreSQL and Redis clients, as
 * a host would (serving-state.ts); the primary only migrates PostgreSQL and holds no connection.
 */
import cluster, { type Worker } from 'node:cluster';
import { CatalogError } from '../../snapshots/errors.js';
import { loadPublicKey } from '../../snapshots/signature.js';
import { loadConfig } from '../config.js';
import { urlOf } from '../http/listen.js';
import type { AdminServer } from '../ops/admin-server.js';
import { createClusterMetrics } from '../ops/cluster-metrics.js';
import { createProcessRegistry } from '../ops/process-registry.js';
import { migratePostgres } from '../state/fleet/migrate.js';
import { openPostgres } from '../state/fleet/postgres.js';
import { openStateDb } from '../state/open.js';
import { startCheckpoints } from '../state/checkpoints.js';
import { shownLocation, type StateLocation } from '../state/state-location.js';
import { DRAIN_TIMEOUT_MS, stateLocationOf, type RunningServer, type ServerOptions } from './server-options.js';
import { firstLine, onStopSignals, startMetricsPort, stderrLog } from './server-process.js';

/** A worker that dies sooner than this after starting is restarted after a pause, not at once. */
const FAST_CRASH_MS = 5_000;
const RESTART_PAUSE_MS = 1_000;

/** The cluster parent: validates once, forks, restarts, forwards signals; serves nothing itself. */
export async function runPrimary(options: ServerOptions): Promise<RunningServer> {
  const log = options.log ?? stderrLog;
  // Fail fast, once, with the real message, instead of N workers crash-looping on a bad setting;
  // and migrate the state file here so workers never race on a schema change.
  const config = loadConfig(options.env);
  if (options.publicKeyFile !== undefined) loadPublicKey(options.publicKeyFile);
  const location = stateLocationOf(options);
  const stateParts = await openPrimaryState(location, log);
  // The primary serves the admin port; each scrape collects the workers' registries over IPC.
  const clusterMetrics = options.adminPort === undefined ? null : createClusterMetrics(createProcessRegistry('primary'));
  let admin: AdminServer | null = null;
  let stateOpen = true;
  const closeState = () => {
    if (!stateOpen) return;
    stateOpen = false;
    admin?.close();
    clusterMetrics?.close();
    stateParts.close();
  };
  if (clusterMetrics) {
    // Before the workers fork, so a bad admin address fails the start once, with nothing to undo.
    try {
      admin = await startMetricsPort(options, config.internalKey, () => clusterMetrics.collect());
    } catch (err) {
      closeState();
      throw err;
    }
  }

  const workers = new Set<Worker>();
  let shuttingDown = false;
  let allStarted = false;
  let port: number | null = null;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

  const fork = (): Worker => {
    const worker = cluster.fork(options.env);
    const startedAt = Date.now();
    workers.add(worker);
    worker.on('exit', (code, signal) => {
      workers.delete(worker);
      if (shuttingDown) {
        if (workers.size === 0) finish();
        return;
      }
      // Before every worker is up, an exit is a failed start: reported by `started` below, no restart.
      if (!allStarted || (code === 0 && signal === null)) return;
      log(`catalog serve: worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); restarting it`);
      const pause = Date.now() - startedAt < FAST_CRASH_MS ? RESTART_PAUSE_MS : 0;
      setTimeout(() => {
        if (!shuttingDown) fork();
      }, pause);
    });
    return worker;
  };

  // Every worker must come up once before the server counts as started; one that dies before it
  // listens (port taken, bad state file) means the others would fail the same way.
  const started = new Promise<void>((resolve, reject) => {
    let listening = 0;
    const onListening = (_worker: Worker, address: { port: number }) => {
      port ??= address.port;
      if (++listening === options.workers) {
        cluster.off('listening', onListening);
        cluster.off('exit', onEarlyExit);
        resolve();
      }
    };
    const onEarlyExit = (worker: Worker, code: number, signal: string | null) => {
      cluster.off('listening', onListening);
      cluster.off('exit', onEarlyExit);
      shuttingDown = true;
      for (const w of workers) w.process.kill('SIGTERM');
      reject(new CatalogError('io', `worker ${worker.process.pid} stopped before listening (${signal ?? `code ${code}`}); see its message above`));
    };
    cluster.on('listening', onListening);
    cluster.on('exit', onEarlyExit);
  });

  for (let i = 0; i < options.workers; i++) fork();
  try {
    await started;
  } catch (err) {
    closeState();
    throw err;
  }
  allStarted = true;
  const url = urlOf(options.host, port!);
  log(`catalog serve: listening on ${url} (primary pid ${process.pid}, ${options.workers} workers, snapshots ${options.snapshots}, state ${shownLocation(location)})`);
  if (admin) log(`catalog serve: metrics on ${admin.url}/metrics (all workers)`);

  let killTimer: NodeJS.Timeout | null = null;
  function finish() {
    if (killTimer) clearTimeout(killTimer);
    removeSignals();
    closeState();
    log(`catalog serve: stopped (primary pid ${process.pid})`);
    resolveClosed();
  }

  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      shuttingDown = true;
      if (workers.size === 0) {
        finish();
        return;
      }
      for (const w of workers) w.process.kill('SIGTERM');
      // Workers drain for up to DRAIN_TIMEOUT_MS; past that plus a margin they are killed.
      killTimer = setTimeout(() => {
        for (const w of workers) w.process.kill('SIGKILL');
      }, DRAIN_TIMEOUT_MS + 2_000);
      killTimer.unref();
      await closed;
    })();
    return stopping;
  };
  const removeSignals = onStopSignals(() => void stop(), options.handleSignals !== false);
  return { role: 'primary', url, adminUrl: admin?.url ?? null, stop, closed };
}

/**
 * Migrates the state once before the workers fork. SQLite: the file stays open for the WAL
 * checkpoints (the primary serves no request, so they cost the workers nothing but the I/O).
 * Fleet: PostgreSQL is migrated and the pool closed (the workers' own migrations then find nothing
 * to do); Redis needs no schema.
 */
async function openPrimaryState(location: StateLocation, log: (line: string) => void): Promise<{ close(): void }> {
  if (location.kind === 'fleet') {
    const pg = openPostgres(location.postgres, { max: 1 });
    try {
      await migratePostgres(pg);
    } finally {
      await pg.end();
    }
    return { close: () => undefined };
  }
  const state = openStateDb(location.file);
  const checkpoints = startCheckpoints({
    state,
    onError: (err) => log(`catalog serve: WAL checkpoint failed: ${firstLine(err)}`),
  });
  return {
    close() {
      checkpoints.stop();
      state.close();
    },
  };
}
