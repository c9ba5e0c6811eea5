/**
 * `catalog demo [--dir data] [--port 8080] [--cards 5000]` (what `npm start` runs): everything a
 * first look needs, in one folder. Binds the port first (see below), then generates the default
 * synthetic catalog into <dir>/catalog when it is absent, compiles it into <dir>/snapshots
 * (incremental, so a re-run is quick) signed with the key pair in <dir>/signing (made on the first
 * run, re-used after, so a mirror that pinned its public key keeps verifying), mints a key for tenant
 * "demo" (tier standard) in <dir>/state.sqlite, and serves on 127.0.0.1 with one worker until Ctrl-C,
 * publishing the public key at /v1/snapshot/public-key. Prints the URL, the key (shown this once,
 * like `keys mint`) and curl lines.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { createCliLogger, parseLogLevel } from '../log.js';
import { parseIntOption } from '../options.js';
import { createTerminalProgress } from '../progress.js';
import { ensureSigningKeyFiles } from '../signing-keys.js';
import { compileSnapshot } from '../../compiler/compile/index.js';
import { DEFAULT_AS_OF, DEFAULT_CARDS, DEFAULT_SEED, MAX_CARDS, generateCatalog } from '../../compiler/generate/index.js';
import { createKeyStore } from '../../proxy/keys/store.js';
import { pinoProxyLogger } from '../../proxy/logger.js';
import { startServer, type RunningServer, type ServerOptions } from '../../proxy/server/main.js';
import { onStopSignals } from '../../proxy/server/server-process.js';
import { openStateDb } from '../../proxy/state/open.js';
import { CatalogError, isCatalogError } from '../../snapshots/errors.js';
import { META_FILE } from '../../snapshots/records.js';

export const DEMO_TENANT = 'demo';
export const DEMO_TIER = 'standard';
/** The demo keeps the current snapshot and one before it (enough to show a rollback). */
const DEMO_KEEP = 2;

interface DemoFlags {
  dir: string;
  port: string;
  cards: string;
}

export function registerDemo(program: Command, io: CliIO): void {
  program
    .command('demo')
    .description('generate a sample catalog (if absent), compile and sign it, mint a demo key and serve it on 127.0.0.1')
    .option('--dir <dir>', 'folder for the catalog, the snapshots, the signing key pair and the state file', 'data')
    .option('--port <port>', 'port to serve on (0 = any free port)', '8080')
    .option('--cards <n>', 'cards in the generated catalog (only when it is generated)', String(DEFAULT_CARDS))
    .action(async (flags: DemoFlags) => {
      const port = parseIntOption('--port', flags.port, 0, 65535);
      const cards = parseIntOption('--cards', flags.cards, 1, MAX_CARDS);
      const catalogDir = join(flags.dir, 'catalog');
      const snapshotsDir = join(flags.dir, 'snapshots');
      const stateFile = join(flags.dir, 'state.sqlite');
      const say = (line: string) => io.stderr.write(line + '\n');

      // Read (or, on the first run, made) before the bind: the server publishes the public key from
      // its first request on.
      const signing = ensureSigningKeyFiles(join(flags.dir, 'signing'));
      // The port is checked by binding the real server before the catalog, the snapshots or the keys
      // are touched, and it stays bound. A probe socket closed again before serving would leave a
      // window in which another process (a second `npm start`) takes the port after this one has
      // compiled and minted, the very failure this order prevents; handing a probe's socket over to
      // the server would need a proxy option for a foreign handle, and the probe would accept
      // connections nobody answers while the compile runs. Listening this early is safe because the
      // server reads `current` on every request: on a fresh folder it answers 503 until the compile
      // below publishes, on a re-run it serves the previous snapshot until then, as `catalog serve`
      // does during any compile. (On a fresh folder the key pair above and an empty state file are
      // made before the bind; a later run re-uses both.)
      const server = await bindDemoServer({
        snapshots: snapshotsDir, state: stateFile, host: '127.0.0.1', port, workers: 1, env: io.env,
        publicKeyFile: signing.publicPath,
        // Ctrl-C during the compile ends the process at once, as before; the server's drain on
        // SIGINT/SIGTERM is installed below, once it serves the demo.
        handleSignals: false,
        log: say,
        // One line per request on stderr, so a first look also shows what the proxy logs.
        logger: pinoProxyLogger(createCliLogger(io, parseLogLevel(io.env))),
      });

      let key: string;
      try {
        const progress = createTerminalProgress(io);
        try {
          if (existsSync(join(catalogDir, META_FILE))) {
            say(`using the catalog in ${catalogDir}`);
          } else {
            say(`generating a catalog of ${cards} cards into ${catalogDir}`);
            let reported = 0;
            await generateCatalog({
              out: catalogDir, cards, seed: DEFAULT_SEED, asOf: DEFAULT_AS_OF,
              onProgress(done, total) {
                if (reported === 0) progress.phase('generating', total);
                progress.advance(done - reported);
                reported = done;
              },
            });
            progress.finish();
          }
          say(`compiling into ${snapshotsDir}`);
          const compiled = await compileSnapshot({ source: catalogDir, out: snapshotsDir, keep: DEMO_KEEP, progress, signKey: signing.privateKey });
          progress.finish();
          say(`snapshot ${compiled.snapshotId}: ${compiled.objects} objects, manifest signed by ${signing.fingerprint}`);
        } finally {
          progress.finish();
        }
        // Minted only now, when nothing is left that could fail before the key is shown.
        const state = openStateDb(stateFile);
        try {
          key = createKeyStore(state).mint({ tenant: DEMO_TENANT, tier: DEMO_TIER }).key;
        } finally {
          state.close();
        }
      } catch (err) {
        await server.stop();
        throw err;
      }

      io.stdout.write(
        `\nThe demo API is up.\n\n` +
        `  URL  ${server.url}\n` +
        `  Key  ${key}   (tenant ${DEMO_TENANT}, tier ${DEMO_TIER}; shown only now)\n\n` +
        `Try:\n` +
        `  curl -s --compressed -H 'Authorization: Bearer ${key}' ${server.url}/v1/catalog/summary\n` +
        `  curl -s --compressed -H 'Authorization: Bearer ${key}' '${server.url}/v1/trending?limit=5'\n\n` +
        `Snapshots are signed by ${signing.fingerprint} (public key: ${server.url}/v1/snapshot/public-key);\n` +
        `to mirror them, see docs/mirroring.md#mirroring-the-demo.\n` +
        `Press Ctrl-C to stop.\n`,
      );
      onStopSignals(() => void server.stop(), true);
      await server.closed;
    });
}

/** Starts the demo's server; a taken port also says how to pass another one through npm. */
async function bindDemoServer(options: ServerOptions): Promise<RunningServer> {
  try {
    return await startServer(options);
  } catch (err) {
    if (!isCatalogError(err) || (err.cause as NodeJS.ErrnoException | undefined)?.code !== 'EADDRINUSE') throw err;
    const other = options.port === 65535 ? 8081 : options.port + 1;
    throw new CatalogError(
      'io',
      `${err.message}. Nothing was compiled and no key was minted. A demo may already be running there; ` +
        `to start another, pass another port: npm start -- --port ${other} (or catalog demo --port ${other})`,
      { code: 'EADDRINUSE' },
      { cause: err },
    );
  }
}
