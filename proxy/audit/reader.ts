/**
 * Reads a key's audit rows newest first, filtered by time (`since` inclusive, `until` exclusive),
 * a page at a time. The statements are fixed: absent bounds are passed as the widest instants.
 */
import type { StateDb } from '../state/open.js';
import type { AuditRow } from './row.js';

export interface AuditQuery {
  keyId: string;
  sinceMs?: number | null;
  untilMs?: number | null;
  offset: number;
  limit: number;
}

export interface AuditReader {
  list(query: AuditQuery): { rows: AuditRow[]; total: number };
}

// Outside any real timestamp (JavaScript dates span ±8.64e15 ms).
const EARLIEST = -8.64e15;
const LATEST = 8.64e15;

/** An audit_log row as stored (the test helpers read rows in this shape too). */
export interface AuditLogRow {
  api_key_id: string;
  tenant_name: string;
  route: string;
  status: number;
  timestamp: string;
  request_id: string;
  path: string;
  bytes: number | null;
  duration_ms: number;
  snapshot_id: string | null;
}

export function createAuditReader(state: StateDb): AuditReader {
  const page = state.sqlite.prepare<[string, number, number, number, number], AuditLogRow>(`SELECT api_key_id, tenant_name, route, status,
      timestamp, request_id, path, bytes, duration_ms, snapshot_id FROM audit_log
    WHERE api_key_id = ? AND ts_ms >= ? AND ts_ms < ? ORDER BY ts_ms DESC, id DESC LIMIT ? OFFSET ?`);
  const count = state.sqlite.prepare<[string, number, number], { n: number }>(
    'SELECT count(*) AS n FROM audit_log WHERE api_key_id = ? AND ts_ms >= ? AND ts_ms < ?',
  );
  return {
    list(q) {
      const since = q.sinceMs ?? EARLIEST;
      const until = q.untilMs ?? LATEST;
      const rows = page.all(q.keyId, since, until, q.limit, q.offset).map(toRow);
      return { rows, total: count.get(q.keyId, since, until)!.n };
    },
  };
}

function toRow(r: AuditLogRow): AuditRow {
  return {
    apiKeyId: r.api_key_id,
    tenantName: r.tenant_name,
    route: r.route,
    status: r.status,
    timestamp: r.timestamp,
    requestId: r.request_id,
    path: r.path,
    bytes: r.bytes,
    durationMs: r.duration_ms,
    snapshotId: r.snapshot_id,
  };
}
