/**
 * `catalog generate --out <dir> [--cards N] [--seed S] [--as-of YYYY-MM-DD] [--force]`: writes a
 * deterministic synthetic catalog (docs/generate.md). Parses options and calls generateCatalog;
 * on a terminal it shows a live progress line on stderr, otherwise it prints only the summary.
 */
import type { Command } from 'commander';
import type { CliIO } from '../io.js';
import { parseIntOption } from '../options.js';
import { createTerminalProgress } from '../progress.js';
import {
  DEFAULT_AS_OF,
  DEFAULT_CARDS,
  DEFAULT_SEED,
  formatSummary,
  generateCatalog,
  MAX_CARDS,
} from '../../compiler/generate/index.js';

interface GenerateFlags {
  out: string;
  cards: string;
  seed: string;
  asOf: string;
  force?: boolean;
}

export function registerGenerate(program: Command, io: CliIO): void {
  program
    .command('generate')
    .description('write a deterministic synthetic catalog (canonical source format) into a folder')
    .requiredOption('--out <dir>', 'folder to write (created when missing; must be empty unless --force)')
    .option('--cards <n>', `number of cards, 1 to ${MAX_CARDS}`, String(DEFAULT_CARDS))
    .option('--seed <s>', 'integer seed: the same options give byte-identical files', String(DEFAULT_SEED))
    .option('--as-of <date>', 'the day the catalog is true for (YYYY-MM-DD): the last day with prices', DEFAULT_AS_OF)
    .option('--force', 'overwrite the catalog files of a non-empty folder')
    .action(async (flags: GenerateFlags) => {
      const cards = parseIntOption('--cards', flags.cards, 1, MAX_CARDS);
      const seed = parseIntOption('--seed', flags.seed, Number.MIN_SAFE_INTEGER);
      const progress = createTerminalProgress(io);
      let reported = 0;
      try {
        const summary = await generateCatalog({
          out: flags.out,
          cards,
          seed,
          asOf: flags.asOf,
          force: flags.force === true,
          onProgress(done, total) {
            if (reported === 0) progress.phase('generating cards and figures', total);
            progress.advance(done - reported);
            reported = done;
          },
        });
        progress.finish();
        io.stdout.write(`${formatSummary(summary)}\n`);
      } catch (err) {
        progress.finish();
        throw err;
      }
    });
}
