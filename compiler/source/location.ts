/**
 * What a `--source` string names: a folder on disk or the base URL of an HTTP export.
 *
 * @example
 *   parseLocation('./catalog')                    // { kind: 'folder', path: '/abs/catalog' }
 *   parseLocation('https://host/export')          // { kind: 'http', base: URL('https://host/export/') }
 *   parseLocation('ftp://host/x')                 // throws CatalogError 'usage'
 */
import path from 'node:path';
import { CatalogError } from '../../snapshots/errors.js';

export type SourceLocation = { kind: 'folder'; path: string } | { kind: 'http'; base: URL };

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

export function parseLocation(location: string): SourceLocation {
  if (location.trim() === '') throw new CatalogError('usage', 'the catalog source is empty: give a folder path or an http(s) URL');
  const scheme = SCHEME.exec(location)?.[1]?.toLowerCase();
  if (scheme === undefined) return { kind: 'folder', path: path.resolve(location) };
  if (scheme !== 'http' && scheme !== 'https') {
    throw new CatalogError('usage', `the catalog source must be a folder path or an http(s) URL, not a ${scheme}: URL`);
  }
  let base: URL;
  try {
    base = new URL(location);
  } catch {
    throw new CatalogError('usage', `the catalog source ${JSON.stringify(location)} is not a valid URL`);
  }
  // Files are resolved relative to the base: without the trailing slash `.../export` + `cards.ndjson`
  // would resolve to `.../cards.ndjson`.
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return { kind: 'http', base };
}

/** The URL of one file of an HTTP export; a query string on the base (e.g. a tenant) is kept. */
export function fileUrl(base: URL, file: string): URL {
  const url = new URL(file, base);
  url.search = base.search;
  return url;
}

/**
 * A URL as it may appear in messages and logs: credentials and query values are secrets as far
 * as we know (ARCHITECTURE.md: no secret in logs or errors), so they are blanked.
 */
export function redactUrl(url: URL): string {
  const shown = new URL(url.href);
  if (shown.username !== '' || shown.password !== '') {
    shown.username = '***';
    shown.password = '';
  }
  for (const key of [...new Set(shown.searchParams.keys())]) shown.searchParams.set(key, '***');
  return shown.href;
}
