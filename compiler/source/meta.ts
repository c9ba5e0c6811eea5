/**
 * Checks `meta.json`. Unlike a record, a bad meta cannot be skipped (every price depends on
 * asOf), so each problem is fatal: CatalogError 'invalid_source' naming the file.
 *
 * @example parseMeta('{"formatVersion":1,"asOf":"2026-11-20"}', 'meta.json') // { formatVersion: 1, asOf: '2026-11-20' }
 */
import { CatalogError } from '../../snapshots/errors.js';
import type { CatalogMeta } from '../../snapshots/records.js';
import { isDate } from '../../snapshots/dates.js';

export function parseMeta(text: string, where: string): CatalogMeta {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new CatalogError('invalid_source', `${where}: not valid JSON (${(err as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CatalogError('invalid_source', `${where}: must be one JSON object`);
  }
  const meta = value as Record<string, unknown>;
  if (meta.formatVersion !== 1) {
    throw new CatalogError(
      'invalid_source',
      `${where}: formatVersion must be 1 (this compiler reads format 1), got ${JSON.stringify(meta.formatVersion)}`,
    );
  }
  if (typeof meta.asOf !== 'string' || !isDate(meta.asOf)) {
    throw new CatalogError('invalid_source', `${where}: asOf must be a date YYYY-MM-DD, got ${JSON.stringify(meta.asOf)}`);
  }
  return value as CatalogMeta;
}
