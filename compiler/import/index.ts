/**
 * `catalog import`: reads one public format and writes (or merges into) a canonical source folder.
 * Several imports into one folder make one catalog (cards first, then the price files that refer to
 * them); importing the same data again changes nothing. Formats and their mapping: docs/real-data.md.
 *
 * @example
 *   const report = await importCatalog({ format: 'mtgjson', path: 'mtg/mtgjson-sets', out: 'data/real', asOf: '2026-11-22' });
 *   console.log(formatImportReport(report));
 */
import { CatalogError } from '../../snapshots/errors.js';
import { isDate } from '../../snapshots/dates.js';
import { importAmiibo } from './amiibo.js';
import { openCatalogFolder } from './catalog-folder.js';
import type { Importer } from './context.js';
import { importLorcanaJson } from './lorcanajson.js';
import { importLorcast } from './lorcast.js';
import { importMtgjson } from './mtgjson.js';
import { importPokemonPricesCsv } from './pokemon-prices-csv.js';
import { importPokemonTcgData } from './pokemon-tcg-data.js';
import { importPunkRecords } from './punk-records.js';
import { createImportReport, type ImportReport } from './report.js';
import { kindOf } from './source-files.js';

export { formatImportReport, sumCounts, type FileCounts, type ImportIssue, type ImportReport } from './report.js';
export { todayUtc } from './source-date.js';

export const IMPORTERS = {
  mtgjson: importMtgjson,
  'pokemon-tcg-data': importPokemonTcgData,
  lorcanajson: importLorcanaJson,
  'punk-records': importPunkRecords,
  amiibo: importAmiibo,
  'pokemon-prices-csv': importPokemonPricesCsv,
  lorcast: importLorcast,
} as const satisfies Record<string, Importer>;

export type ImportFormat = keyof typeof IMPORTERS;
export const IMPORT_FORMATS = Object.keys(IMPORTERS) as ImportFormat[];

export interface ImportOptions {
  format: string;
  path: string;
  out: string;
  /** The day of the import (`addedAt` of new records, least `asOf` of the folder). */
  asOf: string;
  /** Fill every unpriced card and figure with a synthetic series drawn from this seed. */
  syntheticSeed?: number | null;
  /** With strict, nothing is written when a record was rejected. */
  strict?: boolean;
  setsFile?: string;
  priceDate?: string;
}

export async function importCatalog(options: ImportOptions): Promise<ImportReport> {
  if (!(IMPORT_FORMATS as string[]).includes(options.format)) {
    throw new CatalogError('usage', `unknown format "${options.format}": one of ${IMPORT_FORMATS.join(', ')}`);
  }
  if (!isDate(options.asOf)) throw new CatalogError('usage', `--as-of must be a date YYYY-MM-DD (got "${options.asOf}")`);
  await kindOf(options.path);
  if (options.setsFile !== undefined) await kindOf(options.setsFile);
  const folder = await openCatalogFolder(options.out, { asOf: options.asOf });
  const report = createImportReport();
  await IMPORTERS[options.format as ImportFormat](options.path, {
    folder,
    report,
    setsFile: options.setsFile,
    priceDate: options.priceDate,
  });
  if (options.strict === true && report.rejected.length > 0) return report;
  report.totals = await folder.write({ syntheticSeed: options.syntheticSeed ?? null });
  report.written = true;
  return report;
}
