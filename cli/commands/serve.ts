/**
 * `catalog serve --snapshots <folder | s3://bucket/prefix> --state <file | postgres://…> [--redis redis://…] [--host 127.0.0.1]
 * [--port 8080] [--workers N] [--admin-port P [--admin-host 127.0.0.1]] [--snapshot-cache <dir>]
 * [--poll-seconds 5]`: serves the current snapshot behind the key gate until SIGTERM/SIGINT.
 * Prints one stdout line `listening on <url>` once every worker is up (tests and scripts read it;
 * port 0 picks a free port), preceded by `metrics on <url>/metrics` when there is an admin port.
 * The log (one line per request, start and stop) goes to stderr through cli/log.ts.
 */
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { createCliLogger, parseLogLevel } from '../log.js';
import { parseIntOption } from '../options.js';
import { pinoProxyLogger } from '../../proxy/logger.js';
import { defaultWorkers, startServer } from '../../proxy/server/main.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8080;

interface ServeFlags {
  snapshots: string;
  state?: string;
  redis?: string;
  host: string;
  port: string;
  workers?: string;
  cacheMb?: string;
  publicKey?: string;
  adminPort?: string;
  adminHost?: string;
  snapshotCache?: string;
  pollSeconds?: string;
}

export function registerServe(program: Command, io: CliIO): void {
  program
    .command('serve')
    .description('Serve the current snapshot as the partner API (key auth, rate limits, audit) until SIGTERM.')
    .requiredOption('--snapshots <root>', 'snapshot root holding the `current` pointer: a folder, or s3://bucket/prefix (settings from AWS_*)')
    .option('--state <file|url>', 'state: a SQLite file (keys, rate counters, audit; created if absent), or postgres://… for a fleet of hosts, with --redis (default: CATALOG_STATE_URL)')
    .option('--redis <url>', 'with a postgres:// state: redis://host:6379 for the rate counters and the audit stream (default: CATALOG_REDIS_URL)')
    .option('--host <host>', 'address to bind', DEFAULT_HOST)
    .option('--port <port>', 'port to bind (0 = any free port)', String(DEFAULT_PORT))
    .option('--workers <n>', 'worker processes (default: one per core)')
    .option('--cache-mb <n>', 'object cache per worker, in MiB (bounded whatever the catalog size)', '128')
    .option('--public-key <file>', 'Ed25519 public key (PEM) that verifies the manifests; published at /v1/snapshot/public-key')
    .option('--admin-port <port>', 'serve GET /metrics (Prometheus) on this port (0 = any free port); off when absent')
    .option('--admin-host <host>', 'address of the admin port; not loopback: /metrics needs CATALOG_INTERNAL_KEY', '127.0.0.1')
    .option('--snapshot-cache <dir>', 's3:// only: local folder for the snapshots\' index and search files (default: snapshot-cache beside --state)')
    .option('--poll-seconds <n>', 's3:// only: how often current.json is read (a folder\'s pointer is read every 250 ms)', '5')
    .action(async (flags: ServeFlags) => {
      const logger = createCliLogger(io, parseLogLevel(io.env));
      const server = await startServer({
        snapshots: flags.snapshots,
        // Resolved with the environment here; server-options.ts checks the pair (a fleet needs Redis).
        state: flags.state ?? io.env.CATALOG_STATE_URL ?? '',
        redis: flags.redis,
        host: flags.host,
        port: parseIntOption('--port', flags.port, 0, 65535),
        workers: flags.workers === undefined ? defaultWorkers() : parseIntOption('--workers', flags.workers, 1, 256),
        cacheBytes: parseIntOption('--cache-mb', flags.cacheMb ?? '128', 0, 1 << 20) * 1024 * 1024,
        env: io.env,
        publicKeyFile: flags.publicKey,
        adminPort: flags.adminPort === undefined ? undefined : parseIntOption('--admin-port', flags.adminPort, 0, 65535),
        adminHost: flags.adminHost,
        snapshotCache: flags.snapshotCache,
        snapshotPollMs: parseIntOption('--poll-seconds', flags.pollSeconds ?? '5', 1, 3600) * 1000,
        log: (line) => logger.info(line),
        logger: pinoProxyLogger(logger),
      });
      // Workers re-run this command line under node:cluster; only the parent speaks.
      if (server.role !== 'worker') {
        if (server.adminUrl !== null) io.stdout.write(`metrics on ${server.adminUrl}/metrics\n`);
        io.stdout.write(`listening on ${server.url}\n`);
      }
      await server.closed;
    });
}
