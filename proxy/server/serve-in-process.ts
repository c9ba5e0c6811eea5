/**
 * Serves in this process (`--workers 1`, or one forked cluster worker): one app, one state
 * connection, one listening socket with the client timeouts and size limits, and a stop() that
 * drains in-flight requests before it closes the state file.
 */
import cluster from 'node:cluster';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { openSnapshotSource } from '../../snapshots/store/open-snapshot-source.js';
import { loadPublicKey } from '../../snapshots/signature.js';
import { createApp } from '../app.js';
import { createSearchIndexCache } from '../search/index-cache.js';
import { loadConfig } from '../config.js';
import { answerAdapterError, answerClientError, MAX_HEADER_BYTES, rejectLongUrl } from '../http/refusals.js';
import { listen, urlOf } from '../http/listen.js';
import { defaultLogger, stackless } from '../logger.js';
import type { AdminServer } from '../ops/admin-server.js';
import { answerMetricsRequests } from '../ops/cluster-metrics.js';
import { createProcessRegistry } from '../ops/process-registry.js';
import { renderMetrics } from '../ops/render-metrics.js';
import { openStateDb } from '../state/open.js';
import { loadWebhookSettings } from '../webhooks/settings.js';
import { createSqliteWebhookStore } from '../webhooks/sqlite-store.js';
import { startWebhookSender } from '../webhooks/sender.js';
import { startAuditRetention } from '../audit/retention.js';
import { SERVING_AUTOCHECKPOINT_PAGES, startCheckpoints } from '../state/checkpoints.js';
import {
  CONNECTIONS_CHECK_MS, DRAIN_TIMEOUT_MS, HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, REQUEST_TIMEOUT_MS,
  snapshotCacheDir, type RunningServer, type ServerOptions,
} from './server-options.js';
import { firstLine, onStopSignals, startMetricsPort, stderrLog } from './server-process.js';

/** Serves in this process: one app, one state connection, one listening socket. */
export async function serveInProcess(options: ServerOptions, role: 'single' | 'worker'): Promise<RunningServer> {
  const log = options.log ?? stderrLog;
  const config = loadConfig(options.env);
  const webhookSettings = loadWebhookSettings(options.env);
  const publicKey = options.publicKeyFile === undefined ? null : loadPublicKey(options.publicKeyFile);
  const snapshots = await openSnapshotSource(options.snapshots, {
    cacheDir: snapshotCacheDir(options),
    pollMs: options.snapshotPollMs,
    env: options.env,
    onError: (err, id) => log(`catalog serve: cannot fetch snapshot ${id} from ${options.snapshots}: ${firstLine(err)}${err instanceof Error && err.cause instanceof Error ? ` (${firstLine(err.cause)})` : ''}`),
  });
  const state = openStateDb(options.state, { walAutocheckpointPages: SERVING_AUTOCHECKPOINT_PAGES });
  // Owned here so stop() can close the read-only handles of the snapshots' search.sqlite files.
  const searchIndexes = createSearchIndexCache();
  // Metrics are kept only when there is an admin port to read them (in a worker, the primary's).
  const registry = options.adminPort === undefined ? null : createProcessRegistry(role === 'worker' ? `worker-${cluster.worker?.id ?? process.pid}` : 'single');
  const webhookStore = createSqliteWebhookStore(state);
  let server: Server;
  let admin: AdminServer | null = null;
  try {
    const app = createApp({
      db: state, config, snapshots, cacheBytes: options.cacheBytes,
      logger: stackless(options.logger ?? defaultLogger()), metricsRegistry: registry ?? undefined, searchIndexes, publicKey,
      webhooks: { store: webhookStore, allowLoopbackHttp: webhookSettings.allowLoopbackHttp },
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
    await snapshots.close?.();
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
  // Every process sends (several share the state file: the store's leases keep one sender per
  // delivery); in the background, so a slow receiver never holds a request or a publish.
  const webhooks = startWebhookSender({ store: webhookStore, snapshots, settings: webhookSettings, log: (line) => log(`catalog serve: ${line}`) });
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
      await webhooks.stop();
      retention.stop();
      checkpoints?.stop();
      await searchIndexes.close();
      await snapshots.close?.();
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
