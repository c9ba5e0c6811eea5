/**
 * Serves in this process (`--workers 1`, or one forked cluster worker): one app, its own state
 * (the SQLite file's connection, or its own PostgreSQL and Redis clients: serving-state.ts), one
 * listening socket with the client timeouts and size limits, and a stop() that drains in-flight
 * requests before it closes the state.
 */
import cluster from 'node:cluster';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { openSnapshotSource } from '../../snapshots/store/open-snapshot-source.js';
import { loadPublicKey } from '../../snapshots/signature.js';
import { createApp, webhookStoreOf } from '../app.js';
import { createSearchIndexCache } from '../search/index-cache.js';
import { loadConfig } from '../config.js';
import { answerAdapterError, answerClientError, MAX_HEADER_BYTES, rejectLongUrl } from '../http/refusals.js';
import { listen, urlOf } from '../http/listen.js';
import { defaultLogger, stackless } from '../logger.js';
import type { AdminServer } from '../ops/admin-server.js';
import { answerMetricsRequests } from '../ops/cluster-metrics.js';
import { createProcessRegistry } from '../ops/process-registry.js';
import { renderMetrics } from '../ops/render-metrics.js';
import { shownLocation } from '../state/state-location.js';
import { loadWebhookSettings } from '../webhooks/settings.js';
import { startWebhookSender } from '../webhooks/sender.js';
import {
  CONNECTIONS_CHECK_MS, DRAIN_TIMEOUT_MS, HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, REQUEST_TIMEOUT_MS,
  snapshotCacheDir, stateLocationOf, type RunningServer, type ServerOptions,
} from './server-options.js';
import { firstLine, onStopSignals, startMetricsPort, stderrLog } from './server-process.js';
import { openServingState, type ServingState } from './serving-state.js';

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
  const location = stateLocationOf(options);
  let state: ServingState;
  try {
    state = await openServingState(location, { role, retentionDays: config.auditRetentionDays, log });
  } catch (err) {
    await snapshots.close?.();
    throw err;
  }
  // Owned here so stop() can close the read-only handles of the snapshots' search.sqlite files.
  const searchIndexes = createSearchIndexCache();
  // Metrics are kept only when there is an admin port to read them (in a worker, the primary's).
  const registry = options.adminPort === undefined ? null : createProcessRegistry(role === 'worker' ? `worker-${cluster.worker?.id ?? process.pid}` : 'single');
  // Webhooks keep their endpoints and deliveries in the state: the SQLite file or the fleet's PostgreSQL.
  const webhookStore = webhookStoreOf(state.app);
  let server: Server;
  let admin: AdminServer | null = null;
  try {
    const app = createApp({
      ...state.app, config, snapshots, cacheBytes: options.cacheBytes,
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
    await state.close();
    await snapshots.close?.();
    throw err;
  }
  const stopAnswering = registry !== null && role === 'worker' ? answerMetricsRequests(registry) : null;
  state.startTimers();
  // Every process sends (several, or a fleet's hosts, share the state: the store's leases keep one
  // sender per delivery); in the background, so a slow receiver never holds a request or a publish.
  const webhooks = startWebhookSender({ store: webhookStore, snapshots, settings: webhookSettings, log: (line) => log(`catalog serve: ${line}`) });
  const url = urlOf(options.host, (server.address() as AddressInfo).port);
  if (role === 'single') {
    log(`catalog serve: listening on ${url} (pid ${process.pid}, snapshots ${options.snapshots}, state ${shownLocation(location)})`);
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
      await searchIndexes.close();
      await snapshots.close?.();
      await state.close();
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
