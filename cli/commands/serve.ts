/**
 * `catalog serve --snapshots <root> --state <file> [--host 127.0.0.1] [--port 8080] [--workers N]`:
 * serves the current snapshot behind the key gate until SIGTERM/SIGINT. Prints one stdout line
 * `listening on <url>` once every worker is up (tests and scripts read it; port 0 picks a free port).
 */
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { parseIntOption } from '../options.js';
import { defaultWorkers, startServer } from '../../proxy/main.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8080;

interface ServeFlags {
  snapshots: string;
  state: string;
  host: string;
  port: string;
  workers?: string;
  cacheMb?: string;
  publicKey?: string;
}

export function registerServe(program: Command, io: CliIO): void {
  program
    .command('serve')
    .description('Serve the current snapshot as the partner API (key auth, rate limits, audit) until SIGTERM.')
    .requiredOption('--snapshots <root>', 'snapshot root holding the `current` pointer')
    .requiredOption('--state <file>', 'SQLite state file (keys, rate counters, audit); created if absent')
    .option('--host <host>', 'address to bind', DEFAULT_HOST)
    .option('--port <port>', 'port to bind (0 = any free port)', String(DEFAULT_PORT))
    .option('--workers <n>', 'worker processes (default: one per core)')
    .option('--cache-mb <n>', 'object cache per worker, in MiB (bounded whatever the catalog size)', '128')
    .option('--public-key <file>', 'Ed25519 public key (PEM) that verifies the manifests; published at /v1/snapshot/public-key')
    .action(async (flags: ServeFlags) => {
      const server = await startServer({
        snapshots: flags.snapshots,
        state: flags.state,
        host: flags.host,
        port: parseIntOption('--port', flags.port, 0, 65535),
        workers: flags.workers === undefined ? defaultWorkers() : parseIntOption('--workers', flags.workers, 1, 256),
        cacheBytes: parseIntOption('--cache-mb', flags.cacheMb ?? '128', 0, 1 << 20) * 1024 * 1024,
        env: io.env,
        publicKeyFile: flags.publicKey,
        log: (line) => io.stderr.write(line + '\n'),
      });
      // Workers re-run this command line under node:cluster; only the parent speaks.
      if (server.role !== 'worker') io.stdout.write(`listening on ${server.url}\n`);
      await server.closed;
    });
}
