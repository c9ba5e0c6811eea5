/**
 * The pieces every serving process shares: the start/stop log line, the admin port that serves
 * /metrics, and the SIGTERM/SIGINT handlers. Lines name paths, ports and pids, never a key, cookie
 * or secret, and an error by its first line only (no stacks).
 */
import { DEFAULT_ADMIN_HOST, startAdminServer, type AdminServer } from '../ops/admin-server.js';
import type { ServerOptions } from './server-options.js';

export const stderrLog = (line: string) => {
  process.stderr.write(line + '\n');
};

export const firstLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n', 1)[0];

/** The admin listener of --admin-port, serving what `collect` gathers (this process, or the cluster). */
export function startMetricsPort(options: ServerOptions, internalKey: string | null, collect: () => Promise<string>): Promise<AdminServer> {
  const log = options.log ?? stderrLog;
  return startAdminServer({
    host: options.adminHost ?? DEFAULT_ADMIN_HOST,
    port: options.adminPort!,
    internalKey,
    collect,
    onError: (err) => log(`catalog serve: collecting metrics failed: ${firstLine(err)}`),
  });
}

/** SIGTERM and SIGINT both drain and stop; returns the function that removes the handlers. */
export function onStopSignals(onSignal: () => void, install: boolean): () => void {
  if (!install) return () => undefined;
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return () => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  };
}
