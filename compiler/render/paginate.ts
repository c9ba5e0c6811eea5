/**
 * Lists are stored as pages of STORED_PAGE_SIZE items (snapshots/keys.ts); the proxy slices them for
 * other limits. Every page of one list shares the list's asOf and total.
 */
import { envelope, pageInfo, type DocumentKind, type Envelope } from '../../snapshots/envelope.js';
import { STORED_PAGE_SIZE, type ListFamily } from '../../snapshots/keys.js';

/** A rendered list and where it lives: page i (1-based) goes to `listPageKey(family, i)`. */
export interface RenderedList<T> {
  family: ListFamily;
  pages: Envelope<T[]>[];
}

/**
 * Pages 1..n of a list; an empty list is one page with `data: []` so page 1 always exists.
 *
 * @example paginate('set', items250, '2026-11-20').map((p) => p.data.length)  // [100, 100, 50]
 */
export function paginate<T>(kind: DocumentKind, items: T[], asOf: string | null): Envelope<T[]>[] {
  return pageSlices(items).map((slice, i) => envelope(kind, asOf, slice, pageInfo(i + 1, STORED_PAGE_SIZE, items.length)));
}

/**
 * The items of each stored page of a list (what paginate puts in each page's `data`): at least one,
 * possibly empty, slice.
 *
 * @example pageSlices(items250).map((s) => s.length)  // [100, 100, 50]
 */
export function pageSlices<T>(items: readonly T[]): T[][] {
  const slices: T[][] = [];
  for (let p = 0, n = pageCount(items.length); p < n; p++) slices.push(items.slice(p * STORED_PAGE_SIZE, (p + 1) * STORED_PAGE_SIZE));
  return slices;
}

/** How many stored pages a list of `items` items has (page 1 always exists). */
export function pageCount(items: number): number {
  return Math.max(1, Math.ceil(items / STORED_PAGE_SIZE));
}
