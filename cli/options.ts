/** Option parsing shared by the commands: integers are checked here so every message names its option. */
import { CatalogError } from '../snapshots/errors.js';

export function parseIntOption(name: string, raw: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^-?[0-9]+$/.test(raw.trim())) throw new CatalogError('usage', `${name} must be an integer (got "${raw}")`);
  const n = Number(raw);
  if (n < min || n > max) throw new CatalogError('usage', `${name} must be between ${min} and ${max} (got ${n})`);
  return n;
}
