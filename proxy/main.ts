/**
 * Starts the proxy: the only place that listens. Loads the config once, opens the state file,
 * builds the app with createApp and serves it on node:http with timeouts and size limits.
 *
 * With `workers > 1` the calling process becomes a node:cluster primary: it checks the config and
 * migrates the state file once, then forks the workers. Workers re-run the same entry (the
 * `catalog serve` command line) and share the port and the state file (SQLite WAL keeps rate
 * counters exact across them). The primary restarts a worker that dies unexpectedly and forwards
 * SIGTERM/SIGINT. SIGTERM drains: no new connections, in-flight requests finish, exit 0, with a
 * hard cap of DRAIN_TIMEOUT_MS.
 *
 * Log lines (stderr) are one per start/stop/restart; they name paths, ports and pids, never a key,
 * cookie or secret, and errors are logged by message, without stacks.
 *
 * @example
 *   const server = await startServer({ snapshots: '/data/snapshots', state: '/data/state.sqlite',
 *     host: '127.0.0.1', port: 8080, workers: 4, env: process.env });
 *   console.log(server.url);  await server.closed;
 */
import cluster, { type Worker } from 'node:cluster';
import { statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { getRequestListener } from '@hono/node-server';
import { CatalogError } from '../snapshots/errors.js';
import { createFsSnapshotSource } from '../snapshots/store/fs.js';
import { createApp } from './app.js';
import { createSearchIndexCache } from './search/index-cache.js';
import { loadConfig } from './config.js';
import { answerAdapterError, answerClientError, MAX_HEADER_BYTES, rejectLongUrl } from './http/refusals.js';
import { listen, urlOf } from './http/listen.js';
import { defaultLogger, stackless, type ProxyLogger } from './logger.js';
import { DEFAULT_ADMIN_HOST, startAdminServer, type AdminServer } from './ops/admin-server.js';
import { answerMetricsRequests, createClusterMetrics } from './ops/cluster-metrics.js';
import { createProcessRegistry } from './ops/process-registry.js';
import { renderMetrics } from './ops/render-metrics.js';
import { openStateDb } from './state/open.js';
import { loadPublicKey } from '../snapshots/signature.js';
import { startAuditRetention } from './audit/retention.js';
import { SERVING_AUTOCHECKPOINT_PAGES, startCheckpoints } from './state/checkpoints.js';

/** A client must have sent its request line and headers within this (slowloris), … */
export const HEADERS_TIMEOUT_MS = 10_000;
/** … and its whole request, body included, within this; past either it gets 408 and is closed. */
export const REQUEST_TIMEOUT_MS = 30_000;
/**
 * How often node:http looks for connections past those timeouts. Node's default is 30 s, which
 * would let a slow client hold a socket up to 40 s instead of 10; a sweep of the connection list
 * once a second costs nothing measurable.
 */
export const CONNECTIONS_CHECK_MS = 1_000;
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** Longest a SIGTERM waits for in-flight requests before closing their sockets. */
export const DRAIN_TIMEOUT_MS = 10_000;
const MAX_WORKERS = 256;
/** A worker that dies sooner than this after starting is restarted after a pause, not at once. */
const FAST_CRASH_MS = 5_000;
const RESTART_PAUSE_MS = 1_000;

export interface ServerOptions {
  /** Snapshot root (holds the snapshot folders and the `current` pointer). */
  snapshots: string;
  /** SQLite state file (keys, rate counters, audit rows); created when absent. */
  state: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Worker processes; 1 serves in this process without node:cluster. */
  workers: number;
  /** Where the CATALOG_* settings are read from, once. */
  env: NodeJS.ProcessEnv;
  /** Byte budget of each process's object cache (default 64 MiB). */
  cacheBytes?: number;
  /** Ed25519 public key (PEM file) published at /v1/snapshot/public-key. */
  publicKeyFile?: string;
  /** Receives the start/stop lines (default: stderr). */
  log?: (line: string) => void;
  /** The app's logger: one line per request and request errors (default: errors only, JSON on stderr). */
  logger?: ProxyLogger;
  /**
   * Port of the admin listener serving GET /metrics (0 picks a free port); absent: no admin port and
   * no metrics kept. In a cluster the primary serves it and collects from the workers.
   */
  adminPort?: number;
  /** Address of the admin listener (default 127.0.0.1); a non-loopback one needs CATALOG_INTERNAL_KEY. */
  adminHost?: string;
  /** Install SIGTERM/SIGINT handlers (default true; tests that call stop() may turn it off). */
  handleSignals?: boolean;
  /** Client timeouts in ms (defaults HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); tests use short ones. */
  timeouts?: { headersMs?: number; requestMs?: number; checkMs?: number };
}

export interface RunningServer {
  /** `single`: one process; `primary`: the cluster parent; `worker`: a forked child (prints nothing). */
  role: 'single' | 'primary' | 'worker';
  /** `http://host:port` as bound (the real port when 0 was asked). */
  url: string;
  /** The admin listener's `http://host:port` (metrics at /metrics), or null when there is none. */
  adminUrl: string | null;
  /** Drains and stops (what SIGTERM does). */
  stop(): Promise<void>;
  /** Resolves once the server has stopped. */
  closed: Promise<void>;
}

export function defaultWorkers(): number {
  return availableParallelism();
}

function checkOptions(o: ServerOptions): void {
  const usage = (message: string, option: string) => new CatalogError('usage', message, { option });
  if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535) throw usage(`--port must be 0-65535, got ${o.port}`, 'port');
  if (!Number.isInteger(o.workers) || o.workers < 1 || o.workers > MAX_WORKERS) {
    throw usage(`--workers must be a whole number from 1 to ${MAX_WORKERS}, got ${o.workers}`, 'workers');
  }
  if (o.host.length === 0) throw usage('--host must not be empty', 'host');
  if (o.adminPort !== undefined && (!Number.isInteger(o.adminPort) || o.adminPort < 0 || o.adminPort > 65535)) {
    throw usage(`--admin-port must be 0-65535, got ${o.adminPort}`, 'admin-port');
  }
  if (o.adminHost !== undefined && o.adminHost.length === 0) throw usage('--admin-host must not be empty', 'admin-host');
  if (o.snapshots.length === 0) throw usage('--snapshots must name the snapshot root', 'snapshots');
  // A root that does not exist yet is fine (503 until the first compile publishes); a file never becomes one.
  if (statSync(o.snapshots, { throwIfNoEntry: false })?.isFile()) throw usage(`--snapshots ${o.snapshots} is a file, not a snapshot root folder`, 'snapshots');
  if (o.state.length === 0) throw usage('--state must name the state file', 'state');
  const t = o.timeouts ?? {};
  for (const [name, value] of Object.entries(t)) {
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) throw usage(`timeouts.${name} must be a whole number of ms >= 1, got ${value}`, `timeouts.${name}`);
  }
  if ((t.headersMs ?? HEADERS_TIMEOUT_MS) > (t.requestMs ?? REQUEST_TIMEOUT_MS)) throw usage('timeouts.headersMs must not exceed timeouts.requestMs', 'timeouts');
}

const stderrLog = (line: string) => {
  process.stderr.write(line + '\n');
};

const firstLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n', 1)[0];

/** The admin listener of --admin-port, serving what `collect` gathers (this process, or the cluster). */
function startMetricsPort(options: ServerOptions, internalKey: string | null, collect: () => Promise<string>): Promise<AdminServer> {
  const log = options.log ?? stderrLog;
  return startAdminServer({
    host: options.adminHost ?? DEFAULT_ADMIN_HOST,
    port: options.adminPort!,
    internalKey,
    collect,
    onError: (err) => log(`catalog serve: collecting metrics failed: ${firstLine(err)}`),
  });
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  checkOptions(options);
  if (cluster.isWorker) {
    try {
      return await serveInProcess(options, 'worker');
    } catch (err) {
      // The IPC channel would keep a worker that failed to start alive; drop it so the worker exits
      // with its error code and the primary sees it.
      if (process.connected) process.disconnect();
      throw err;
    }
  }
  if (options.workers === 1) return serveInProcess(options, 'single');
  return runPrimary(options);
}

/** Serves in this process: one app, one state connection, one listening socket. */
async function serveInProcess(options: ServerOptions, role: 'single' | 'worker'): Promise<RunningServer> {
  const log = options.log ?? stderrLog;
  const config = loadConfig(options.env);
  const publicKey = options.publicKeyFile === undefined ? null : loadPublicKey(options.publicKeyFile);
  const state = openStateDb(options.state, { walAutocheckpointPages: SERVING_AUTOCHECKPOINT_PAGES });
  // Owned here so stop() can close the read-only handles of the snapshots' search.sqlite files.
  const searchIndexes = createSearchIndexCache();
  // Metrics are kept only when there is an admin port to read them (in a worker, the primary's).
  const registry = options.adminPort === undefined ? null : createProcessRegistry(role === 'worker' ? `worker-${cluster.worker?.id ?? process.pid}` : 'single');
  let server: Server;
  let admin: AdminServer | null = null;
  try {
    const app = createApp({
      db: state, config, snapshots: createFsSnapshotSource(options.snapshots), cacheBytes: options.cacheBytes,
      logger: stackless(options.logger ?? defaultLogger()), metricsRegistry: registry ?? undefined, searchIndexes, publicKey,
    });
    const appListener = getRequestListener(app.fetch, { errorHandler: answerAdapterError });
    server = createServer({
      maxHeaderSize: MAX_HEADER_BYTES,
      headersTimeout: options.timeouts?.headersMs ?? HEADERS_TIMEOUT_MS,
      requestTimeout: options.timeouts?.requestMs ?? REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: options.timeouts?.checkMs ?? CONNECTIONS_CHECK_MS,
    }, (req, res) => {
      if (rejectLongUrl(req, res)) return;
      void appListener(req, res);
    });
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    server.on('clientError', answerClientError);
    await listen(server, options.host, options.port);
    if (registry !== null && role === 'single') {
      admin = await startMetricsPort(options, config.internalKey, async () => renderMetrics([await registry.getMetricsAsJSON()])).catch((err: unknown) => {
        server.close();
        throw err;
      });
    }
  } catch (err) {
    state.close();
    throw err;
  }
  const stopAnswering = registry !== null && role === 'worker' ? answerMetricsRequests(registry) : null;
  // Every process prunes old audit rows (a DELETE of expired rows is idempotent, so N workers doing
  // it hourly is harmless) and the timer is unref'd so it never keeps a stopping worker alive.
  const retention = startAuditRetention({
    state,
    retentionDays: config.auditRetentionDays,
    onError: (err) => log(`catalog serve: audit pruning failed: ${firstLine(err)}`),
  });
  // Checkpoints run on a timer, never inside a request (state/checkpoints.ts); in a cluster the
  // primary runs them, so a worker only ever checkpoints as the 64 MiB backstop.
  const checkpoints = role === 'single' ? startCheckpoints({ state, onError: (err) => log(`catalog serve: WAL checkpoint failed: ${firstLine(err)}`) }) : null;
  const url = urlOf(options.host, (server.address() as AddressInfo).port);
  if (role === 'single') {
    log(`catalog serve: listening on ${url} (pid ${process.pid}, snapshots ${options.snapshots}, state ${options.state})`);
    if (admin) log(`catalog serve: metrics on ${admin.url}/metrics`);
  }

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let stopping: Promise<void> | null = null;

  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      admin?.close();
      stopAnswering?.();
      await drain(server);
      retention.stop();
      checkpoints?.stop();
      await searchIndexes.close();
      state.close();
      removeSignals();
      if (role === 'single') log(`catalog serve: stopped (pid ${process.pid})`);
      resolveClosed();
      if (role === 'worker') {
        // Let the worker exit: the IPC channel to the primary is the last handle keeping it alive.
        // If something else still holds the loop, the primary's SIGKILL cap ends it.
        if (process.connected) process.disconnect();
      }
    })();
    return stopping;
  };
  const removeSignals = onStopSignals(() => void stop(), options.handleSignals !== false);
  return { role, url, adminUrl: admin?.url ?? null, stop, closed };
}

/**
 * Stops accepting, lets in-flight requests finish, and closes idle keep-alive sockets as they go
 * idle; after DRAIN_TIMEOUT_MS the remaining sockets are closed so a stuck client cannot hold the
 * shutdown forever.
 */
function drain(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    const cap = setTimeout(() => server.closeAllConnections(), DRAIN_TIMEOUT_MS);
    sweep.unref();
    cap.unref();
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(cap);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** The cluster parent: validates once, forks, restarts, forwards signals; serves nothing itself. */
async function runPrimary(options: ServerOptions): Promise<RunningServer> {
  const log = options.log ?? stderrLog;
  // Fail fast, once, with the real message, instead of N workers crash-looping on a bad setting;
  // and migrate the state file here so workers never race on a schema change.
  const config = loadConfig(options.env);
  if (options.publicKeyFile !== undefined) loadPublicKey(options.publicKeyFile);
  const state = openStateDb(options.state);
  // The primary serves no request, so its checkpoints cost the workers nothing but the I/O; the
  // connection stays open for them until the primary stops.
  const checkpoints = startCheckpoints({
    state,
    onError: (err) => log(`catalog serve: WAL checkpoint failed: ${firstLine(err)}`),
  });
  // The primary serves the admin port; each scrape collects the workers' registries over IPC.
  const clusterMetrics = options.adminPort === undefined ? null : createClusterMetrics(createProcessRegistry('primary'));
  let admin: AdminServer | null = null;
  let stateOpen = true;
  const closeState = () => {
    if (!stateOpen) return;
    stateOpen = false;
    admin?.close();
    clusterMetrics?.close();
    checkpoints.stop();
    state.close();
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
  log(`catalog serve: listening on ${url} (primary pid ${process.pid}, ${options.workers} workers, snapshots ${options.snapshots}, state ${options.state})`);
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

/** SIGTERM and SIGINT both drain and stop; returns the function that removes the handlers. */
function onStopSignals(onSignal: () => void, install: boolean): () => void {
  if (!install) return () => undefined;
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return () => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  };
}
