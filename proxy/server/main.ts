/**
 * Starts the proxy, the only code that listens. After one check of the options (server-options.ts)
 * it serves in this process (serve-in-process.ts: the config loaded once, the state file, the app of
 * createApp on node:http with timeouts and size limits), or becomes the cluster primary.
 *
 * With `workers > 1` the process is a node:cluster primary (cluster-primary.ts): it checks the config and
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
import cluster from 'node:cluster';
import { runPrimary } from './cluster-primary.js';
import { serveInProcess } from './serve-in-process.js';
import { checkOptions, type RunningServer, type ServerOptions } from './server-options.js';

export {
  CONNECTIONS_CHECK_MS, DRAIN_TIMEOUT_MS, HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, REQUEST_TIMEOUT_MS,
  defaultWorkers, type RunningServer, type ServerOptions,
} from './server-options.js';

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
