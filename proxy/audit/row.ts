/** One audit row (API.md §5): the fixed fields plus the decided ones. */
export interface AuditEntry {
  apiKeyId: string;
  tenantName: string;
  /** Route pattern (`/v1/cards/:id`), or `(unmatched)` when no route answered. */
  route: string;
  status: number;
  /** When the request arrived, ms since the epoch (shown as an ISO timestamp). */
  timestampMs: number;
  requestId: string;
  /** Path without the query string: queries can carry end users' search text. */
  path: string;
  /** Response body length when known (Content-Length), else null. */
  bytes: number | null;
  durationMs: number;
  snapshotId: string | null;
}

/** The JSON shape of a row in the audit route and `catalog audit --json`. */
export interface AuditRow {
  apiKeyId: string;
  tenantName: string;
  route: string;
  status: number;
  timestamp: string;
  requestId: string;
  path: string;
  bytes: number | null;
  durationMs: number;
  snapshotId: string | null;
}

export const UNMATCHED_ROUTE = '(unmatched)';
