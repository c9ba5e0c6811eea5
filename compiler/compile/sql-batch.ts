/**
 * Statements of many rows at once for the compile's object index (object-table.ts, touched-keys.ts):
 * one statement call per BATCH rows or keys instead of one per row (a call costs more than the row).
 */
import { CatalogError } from '../../snapshots/errors.js';

/** Rows per INSERT and keys per `IN (...)` lookup. */
export const BATCH = 64;

/** `?, ?, …`: n parameters. */
export const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** `(?, …), (?, …)`: the VALUES of `rows` rows of `columns` parameters. */
export const rowMarks = (rows: number, columns = 6) => Array.from({ length: rows }, () => `(${marks(columns)})`).join(', ');

/** BATCH keys from `start`, padded with '' (never a key) so one prepared statement serves every batch. */
export function padded(keys: readonly string[], start: number): string[] {
  const out = keys.slice(start, start + BATCH);
  while (out.length < BATCH) out.push('');
  return out;
}

/** A primary-key conflict among `keys` as the compile's own error (two documents at one key); any other error as it is. */
export function duplicateKeyError(err: unknown, keys: string[]): unknown {
  if ((err as { code?: string }).code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return err;
  const seen = new Set<string>();
  const twice = keys.find((k) => seen.has(k) || !seen.add(k)) ?? keys.join(', ');
  return new CatalogError('internal', `two documents render to the same key: ${twice}`);
}
