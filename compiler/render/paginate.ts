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
  const total = items.length;
  const pageCount = Math.max(1, Math.ceil(total / STORED_PAGE_SIZE));
  const pages: Envelope<T[]>[] = [];
  for (let p = 1; p <= pageCount; p++) {
    const slice = items.slice((p - 1) * STORED_PAGE_SIZE, p * STORED_PAGE_SIZE);
    pages.push(envelope(kind, asOf, slice, pageInfo(p, STORED_PAGE_SIZE, total)));
  }
  return pages;
}
