/**
 * What every importer gets: the folder to put records into, the report to count them on, and the
 * options some formats need.
 */
import type { CatalogFolder } from './catalog-folder.js';
import type { ImportReportBuilder } from './report.js';

export interface ImportContext {
  folder: CatalogFolder;
  report: ImportReportBuilder;
  /** punk-records: a mytcgcollection `sets/en.json` with release dates, when given. */
  setsFile?: string;
  /** lorcast: the day the price snapshot was taken (its files carry no date). */
  priceDate?: string;
}

export type Importer = (path: string, context: ImportContext) => Promise<void>;
