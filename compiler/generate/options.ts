/**
 * Options of `generateCatalog`, checked once before anything is written. Messages name the CLI
 * option, since that is how people meet them.
 */
import { CatalogError } from '../../snapshots/errors.js';
import { isDate } from '../../snapshots/dates.js';

export const MAX_CARDS = 10_000_000;
export const DEFAULT_CARDS = 5000;
export const DEFAULT_SEED = 1;
export const DEFAULT_AS_OF = '2026-11-20';

export interface GenerateOptions {
  /** Output folder; created when missing. */
  out: string;
  cards: number;
  seed: number;
  /** `YYYY-MM-DD`: the last day with prices. */
  asOf: string;
  /** Overwrite the catalog files of a non-empty folder (other files are left alone). */
  force?: boolean;
  /** Called as entities (cards, then figures) are written; `total` is cards + figures. */
  onProgress?: (done: number, total: number) => void;
}

export function checkGenerateOptions(options: GenerateOptions): void {
  const { out, cards, seed, asOf } = options;
  if (typeof out !== 'string' || out.trim() === '') throw new CatalogError('usage', '--out must name a folder');
  if (!Number.isSafeInteger(cards) || cards < 1 || cards > MAX_CARDS) {
    throw new CatalogError('usage', `--cards must be a positive integer up to ${MAX_CARDS} (got ${String(cards)})`);
  }
  if (!Number.isSafeInteger(seed)) throw new CatalogError('usage', `--seed must be an integer (got ${String(seed)})`);
  // Years past 9999 do not fit YYYY-MM-DD; years before 1900 make no sense for a price history.
  if (typeof asOf !== 'string' || !isDate(asOf) || asOf < '1900-01-01') {
    throw new CatalogError('usage', `--as-of must be a real date YYYY-MM-DD (got "${String(asOf)}")`);
  }
}
