/**
 * Opens the canonical catalog named by `--source`: a folder path, or the base URL of an HTTP
 * export serving the same layout (`<base>/meta.json`, `<base>/cards.ndjson`, ...). Options are
 * checked here, once, with messages that name the option.
 *
 * @example
 *   const source = openSource('https://catalog.internal/export/', { concurrency: 4, retries: 5 });
 *   try {
 *     const catalog = await loadCatalog(source, { maxRejects: 0 });
 *     for await (const { record } of streamPrices(source, catalog)) { ... }
 *     catalog.rejects.finish();
 *   } finally {
 *     await source.close();
 *   }
 */
import fs from 'node:fs';
import type { Dispatcher } from 'undici';
import { CatalogError } from '../../snapshots/errors.js';
import type { CatalogSource } from './catalog-source.js';
import { createFolderSource } from './fs-source.js';
import { createHttpSource } from './http-source.js';
import { parseLocation } from './location.js';

export interface OpenSourceOptions {
  /** HTTP only: files downloaded at once (default 4). */
  concurrency?: number;
  /** HTTP only: extra attempts per file after a transient failure (default 4). */
  retries?: number;
  /** HTTP only: longest wait for response headers, and between two body chunks (default 30,000 ms). */
  fetchTimeoutMs?: number;
  /** HTTP only: first backoff step between attempts, doubled per attempt, with jitter (default 250 ms). */
  retryBaseMs?: number;
  /** HTTP only: an undici dispatcher (Agent, Pool, MockAgent) to use instead of the source's own Agent. */
  dispatcher?: Dispatcher;
}

export const SOURCE_DEFAULTS = { concurrency: 4, retries: 4, fetchTimeoutMs: 30_000, retryBaseMs: 250 } as const;

export function openSource(location: string, options: OpenSourceOptions = {}): CatalogSource {
  const concurrency = checkInteger('concurrency', options.concurrency ?? SOURCE_DEFAULTS.concurrency, 1);
  const retries = checkInteger('retries', options.retries ?? SOURCE_DEFAULTS.retries, 0);
  const fetchTimeoutMs = checkInteger('fetchTimeoutMs', options.fetchTimeoutMs ?? SOURCE_DEFAULTS.fetchTimeoutMs, 1);
  const retryBaseMs = checkInteger('retryBaseMs', options.retryBaseMs ?? SOURCE_DEFAULTS.retryBaseMs, 0);

  const parsed = parseLocation(location);
  if (parsed.kind === 'http') {
    return createHttpSource(parsed.base, { concurrency, retries, fetchTimeoutMs, retryBaseMs, dispatcher: options.dispatcher });
  }
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(parsed.path, { throwIfNoEntry: false });
  } catch (err) {
    throw new CatalogError('io', `cannot read the catalog folder ${parsed.path}: ${(err as Error).message}`, {}, { cause: err });
  }
  if (stat === undefined) throw new CatalogError('usage', `the catalog folder ${parsed.path} does not exist`);
  if (!stat.isDirectory()) throw new CatalogError('usage', `the catalog source ${parsed.path} is not a folder`);
  return createFolderSource(parsed.path);
}

function checkInteger(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) {
    throw new CatalogError('usage', `source option ${name} must be an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}
