/**
 * Strict query-parameter parsing shared by the list routes (API.md §3): `page` 1..MAX_PAGE, `limit`
 * any integer >= 1 (above 100 is capped with a warning); anything else is 400 `invalid_parameter`
 * naming it. proxy/route-table/params.ts states the same bounds from these constants.
 */
import { CatalogError } from '../../snapshots/errors.js';

export const MAX_LIMIT = 100;
/** The largest page that is still an exact number; past it a page number would be rounded. */
export const MAX_PAGE = Number.MAX_SAFE_INTEGER;

export interface ListParams {
  page: number;
  limit: number;
  warnings: string[];
}

const DIGITS = /^[0-9]+$/;

/** Any run of digits worth 1..max; the message says the range, so a refused value says what would do. */
function parsePositiveInt(name: string, raw: string, max: number): number {
  const range = max === Infinity ? 'an integer, 1 or more' : `an integer from 1 to ${max}`;
  if (!DIGITS.test(raw)) throw new CatalogError('invalid_parameter', `${name} must be ${range}`, { parameter: name });
  const n = Number(raw);
  if (n < 1 || n > max) throw new CatalogError('invalid_parameter', `${name} must be ${range}`, { parameter: name });
  return n;
}

/** A parameter given more than once is ambiguous, so it is rejected rather than guessed. */
export function singleParam(query: URLSearchParams, name: string): string | undefined {
  const all = query.getAll(name);
  if (all.length > 1) throw new CatalogError('invalid_parameter', `${name} may be given only once`, { parameter: name });
  return all[0];
}

export function parseListParams(query: URLSearchParams, defaultLimit: number): ListParams {
  const warnings: string[] = [];
  const rawPage = singleParam(query, 'page');
  const rawLimit = singleParam(query, 'limit');
  const page = rawPage === undefined ? 1 : parsePositiveInt('page', rawPage, MAX_PAGE);
  // Any limit is taken: above MAX_LIMIT it is capped (with a warning), so its size does not matter.
  let limit = rawLimit === undefined ? defaultLimit : parsePositiveInt('limit', rawLimit, Infinity);
  if (limit > MAX_LIMIT) {
    warnings.push(`limit capped at ${MAX_LIMIT}`);
    limit = MAX_LIMIT;
  }
  return { page, limit, warnings };
}

/** Rejects query parameters a route does not know, so a typo is a clear 400 instead of a silent default. */
export function rejectUnknownParams(query: URLSearchParams, allowed: readonly string[]): void {
  for (const name of query.keys()) {
    if (!allowed.includes(name)) throw new CatalogError('invalid_parameter', `unknown parameter ${name}`, { parameter: name });
  }
}

/**
 * RFC 8288 `Link` header with `next`/`prev` for a list page, built from the request URL so every
 * other parameter is kept. Returns null when there is neither.
 */
export function linkHeader(requestUrl: string, page: number, limit: number, total: number): string | null {
  const totalPages = Math.max(1, Math.ceil(total / limit));
  const links: string[] = [];
  const at = (p: number) => {
    const u = new URL(requestUrl);
    u.searchParams.set('page', String(p));
    u.searchParams.set('limit', String(limit));
    return `<${u.pathname}${u.search}>`;
  };
  if (page < totalPages) links.push(`${at(page + 1)}; rel="next"`);
  if (page > 1) links.push(`${at(Math.min(page - 1, totalPages))}; rel="prev"`);
  return links.length > 0 ? links.join(', ') : null;
}
