/**
 * The envelope every 200 body wears (API.md §2.5), and the date formats of §2.3.
 *
 * @example
 *   envelope('card', '2026-11-20', data)  // { apiVersion: 'v1', kind: 'card', schemaVersion: 1, asOf: '2026-11-20T00:00:00.000Z', data, page: null, warnings: [] }
 */
export const API_VERSION = 'v1';
export const SCHEMA_VERSION = 1;

export const DOCUMENT_KINDS = [
  'card', 'figure', 'oracle', 'set', 'artist', 'series', 'pullStats', 'search', 'trending', 'recent',
  'discoverSets', 'discoverUsers', 'discoverBinders', 'discoverActivity', 'discoverSparklines',
  'catalogSummary', 'audit', 'showcase', 'showcaseBinders', 'snapshot', 'snapshotChanges', 'bulkFiles',
  'snapshots', 'webhooks', 'webhookDeliveries',
] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export interface Page {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  hasMore: boolean;
}

export interface Envelope<T = unknown> {
  apiVersion: typeof API_VERSION;
  kind: DocumentKind;
  schemaVersion: number;
  asOf: string | null;
  data: T;
  page: Page | null;
  warnings: string[];
}

/** `YYYY-MM-DD` or a full ISO instant → `YYYY-MM-DDTHH:MM:SS.mmmZ` (dates become midnight UTC). */
export function toTimestamp(dateOrInstant: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(dateOrInstant)) return `${dateOrInstant}T00:00:00.000Z`;
  return new Date(dateOrInstant).toISOString();
}

/**
 * toTimestamp for the dates a source may leave unknown (release dates): null stays null.
 *
 * @example toTimestampOrNull(null) // null;  toTimestampOrNull('2024-03-01') // '2024-03-01T00:00:00.000Z'
 */
export function toTimestampOrNull(date: string | null): string | null {
  return date === null ? null : toTimestamp(date);
}

export function envelope<T>(kind: DocumentKind, asOf: string | null, data: T, page: Page | null = null, warnings: string[] = []): Envelope<T> {
  return {
    apiVersion: API_VERSION,
    kind,
    schemaVersion: SCHEMA_VERSION,
    asOf: asOf === null ? null : toTimestamp(asOf),
    data,
    page,
    warnings,
  };
}

/** The page block for `total` items shown `limit` at a time. */
export function pageInfo(page: number, limit: number, total: number): Page {
  const totalPages = Math.max(1, Math.ceil(total / limit));
  return { page, limit, total, totalPages, hasMore: page < totalPages };
}
