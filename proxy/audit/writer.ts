/**
 * Writes audit rows. better-sqlite3 is synchronous: when `record` returns, the row is committed
 * (WAL, synchronous=NORMAL: it survives a crash of the process), which is why the audit middleware
 * calls it before handing the response back (API.md §5: no answered request loses its row).
 */
import type { StateDb } from '../state/open.js';
import type { AuditEntry } from './row.js';

export const AUDIT_INSERT_SQL = `INSERT INTO audit_log
  (api_key_id, tenant_name, route, status, ts_ms, timestamp, request_id, path, bytes, duration_ms, snapshot_id)
  VALUES (@apiKeyId, @tenantName, @route, @status, @timestampMs, @timestamp, @requestId, @path, @bytes, @durationMs, @snapshotId)`;

export interface AuditWriter {
  record(entry: AuditEntry): void;
}

export function createAuditWriter(state: StateDb): AuditWriter {
  const insert = state.sqlite.prepare(AUDIT_INSERT_SQL);
  return {
    record(entry) {
      insert.run({ ...entry, timestamp: new Date(entry.timestampMs).toISOString(), durationMs: Math.round(entry.durationMs) });
    },
  };
}
