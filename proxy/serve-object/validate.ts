/**
 * Path and query checks of API.md §1/§3, run before any store is touched: a value that fails them
 * is a 400 `invalid_parameter` naming the parameter, and never becomes an object key.
 */
import type { Context } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import { isValidId, isValidSlug } from '../../snapshots/ids.js';
import { GAMES, type Game } from '../../snapshots/records.js';

/**
 * The query of a request, parsed once per handler. `c.req.url` is already a serialized URL (the
 * server adapter and the Request constructor both build it with the URL parser), so its query is
 * the part after '?': parsing that alone gives the same parameters as `new URL(url).searchParams`
 * without parsing the whole URL a second time on every request.
 */
export function queryOf(c: Context): URLSearchParams {
  const url = c.req.url;
  const start = url.indexOf('?');
  if (start < 0) return new URLSearchParams();
  const hash = url.indexOf('#', start);
  return new URLSearchParams(hash < 0 ? url.slice(start + 1) : url.slice(start + 1, hash));
}

function invalid(name: string, message: string): CatalogError {
  return new CatalogError('invalid_parameter', message, { parameter: name });
}

export function requireId(value: string | undefined, name: string): string {
  if (value === undefined || !isValidId(value)) {
    throw invalid(name, `${name} must be 1-128 characters of letters, digits, '.', '_' or '-', starting with a letter or digit`);
  }
  return value;
}

export function requireSlug(value: string | undefined, name: string): string {
  if (value === undefined || !isValidSlug(value)) {
    throw invalid(name, `${name} must be 1-64 characters of lowercase letters, digits or '-', starting with a letter or digit`);
  }
  return value;
}

/** Set codes are looked up case-insensitively (API.md §1): lowercased, then checked as a slug. */
export function requireSetCode(value: string | undefined, name: string): string {
  return requireSlug(value?.toLowerCase(), name);
}

export function requireOneOf<T extends string>(value: string | undefined, allowed: readonly T[], name: string): T {
  if (value === undefined || !(allowed as readonly string[]).includes(value)) {
    throw invalid(name, `${name} must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

export function requireGame(value: string | undefined, name: string): Game {
  return requireOneOf(value, GAMES, name);
}
