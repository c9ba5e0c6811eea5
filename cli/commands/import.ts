/**
 * `catalog import <format> <path> --out <dir> [--strict] [--synthetic-prices <seed>] [--as-of D]
 * [--sets <file>] [--price-date D]`: reads a public catalog format into (or merges it into) a source
 * folder (docs/real-data.md), then prints the per-file counts and every rejected record. Exits 0
 * even when records were rejected, unless --strict: then nothing is written and the exit code is
 * 65 (invalid_source).
 */
import type { Command } from 'commander';
import { CatalogError } from '../../snapshots/errors.js';
import { formatImportReport, importCatalog, IMPORT_FORMATS, todayUtc } from '../../compiler/import/index.js';
import type { CliIO } from '../io.js';
import { parseIntOption } from '../options.js';

interface ImportFlags {
  out: string;
  strict?: boolean;
  syntheticPrices?: string;
  asOf?: string;
  sets?: string;
  priceDate?: string;
}

export function registerImport(program: Command, io: CliIO): void {
  program
    .command('import')
    .description(`read a public catalog format into a source folder (formats: ${IMPORT_FORMATS.join(', ')})`)
    .argument('<format>', IMPORT_FORMATS.join(' | '))
    .argument('<path>', 'the file or folder to read')
    .requiredOption('--out <dir>', 'source folder to write or merge into (created when missing)')
    .option('--strict', 'write nothing and exit 65 when any record is rejected')
    .option('--synthetic-prices <seed>', 'fill every unpriced card and figure with a year of synthetic prices (marked synthetic)')
    .option('--as-of <date>', 'the day of the import: addedAt of new records, least asOf of the folder (default: today, UTC)')
    .option('--sets <file>', 'punk-records: a mytcgcollection sets/en.json with release dates')
    .option('--price-date <date>', 'lorcast: the day its price snapshot was taken')
    .action(async (format: string, path: string, flags: ImportFlags) => {
      const syntheticSeed = flags.syntheticPrices === undefined ? null : parseIntOption('--synthetic-prices', flags.syntheticPrices, Number.MIN_SAFE_INTEGER);
      const started = performance.now();
      const report = await importCatalog({
        format,
        path,
        out: flags.out,
        asOf: flags.asOf ?? todayUtc(),
        syntheticSeed,
        strict: flags.strict === true,
        setsFile: flags.sets,
        priceDate: flags.priceDate,
      });
      io.stdout.write(`${formatImportReport(report)}\n`);
      if (!report.written) {
        throw new CatalogError('invalid_source', `${report.rejected.length} record(s) rejected with --strict: nothing written to ${flags.out}`);
      }
      io.stdout.write(`imported ${format} into ${flags.out} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    });
}
