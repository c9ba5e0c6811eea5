/**
 * `catalog demo [--dir data] [--port 8080] [--cards 5000]` (what `npm start` runs): everything a
 * first look needs, in one folder. Generates the default synthetic catalog into <dir>/catalog when
 * it is absent, compiles it into <dir>/snapshots (incremental, so a re-run is quick), mints a key
 * for tenant "demo" (tier standard) in <dir>/state.sqlite, and serves on 127.0.0.1 with one worker
 * until Ctrl-C. Prints the URL, the key (shown this once, like `keys mint`) and a curl line.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { createCliLogger, parseLogLevel } from '../log.js';
import { parseIntOption } from '../options.js';
import { createTerminalProgress } from '../progress.js';
import { compileSnapshot } from '../../compiler/compile/index.js';
import { DEFAULT_AS_OF, DEFAULT_CARDS, DEFAULT_SEED, MAX_CARDS, generateCatalog } from '../../compiler/generate/index.js';
import { createKeyStore } from '../../proxy/keys/store.js';
import { pinoProxyLogger } from '../../proxy/logger.js';
import { startServer } from '../../proxy/main.js';
import { openStateDb } from '../../proxy/state/open.js';
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
    .description('generate a sample catalog (if absent), compile it, mint a demo key and serve it on 127.0.0.1')
    .option('--dir <dir>', 'folder for the catalog, the snapshots and the state file', 'data')
    .option('--port <port>', 'port to serve on (0 = any free port)', '8080')
    .option('--cards <n>', 'cards in the generated catalog (only when it is generated)', String(DEFAULT_CARDS))
    .action(async (flags: DemoFlags) => {
      const port = parseIntOption('--port', flags.port, 0, 65535);
      const cards = parseIntOption('--cards', flags.cards, 1, MAX_CARDS);
      const catalogDir = join(flags.dir, 'catalog');
      const snapshotsDir = join(flags.dir, 'snapshots');
      const stateFile = join(flags.dir, 'state.sqlite');
      const say = (line: string) => io.stderr.write(line + '\n');

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
        const compiled = await compileSnapshot({ source: catalogDir, out: snapshotsDir, keep: DEMO_KEEP, progress });
        progress.finish();
        say(`snapshot ${compiled.snapshotId}: ${compiled.objects} objects`);
      } finally {
        progress.finish();
      }

      const state = openStateDb(stateFile);
      let key: string;
      try {
        key = createKeyStore(state).mint({ tenant: DEMO_TENANT, tier: DEMO_TIER }).key;
      } finally {
        state.close();
      }

      const server = await startServer({
        snapshots: snapshotsDir, state: stateFile, host: '127.0.0.1', port, workers: 1, env: io.env,
        log: say,
        // One line per request on stderr, so a first look also shows what the proxy logs.
        logger: pinoProxyLogger(createCliLogger(io, parseLogLevel(io.env))),
      });
      io.stdout.write(
        `\nThe demo API is up.\n\n` +
        `  URL  ${server.url}\n` +
        `  Key  ${key}   (tenant ${DEMO_TENANT}, tier ${DEMO_TIER}; shown only now)\n\n` +
        `Try:\n` +
        `  curl -s --compressed -H 'Authorization: Bearer ${key}' ${server.url}/v1/catalog/summary\n` +
        `  curl -s --compressed -H 'Authorization: Bearer ${key}' '${server.url}/v1/trending?limit=5'\n\n` +
        `listening on ${server.url}\n` +
        `Press Ctrl-C to stop.\n`,
      );
      await server.closed;
    });
}
