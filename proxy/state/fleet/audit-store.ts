/**
 * The audit rows in PostgreSQL, where every host's rows end up (drainer.ts): the reader behind
 * `GET /v1/admin/b2b-keys/:id/audit` and `catalog audit` in fleet mode (same query and answer as
 * audit/reader.ts), and the retention pruner (as audit/retention.ts: batches, so a large first prune
 * does not hold locks for long).
 *
 * @example
 *   const { rows, total } = await createPostgresAuditReader(pg).list({ keyId, offset: 0, limit: 50 });
 *   await createPostgresAuditPruner(pg, { retentionDays: 90 }).prune();
 */
import { MS_PER_DAY } from '../../../snapshots/dates.js';
import type { AuditQuery } from '../../audit/reader.js';
import type { AuditRow } from '../../audit/row.js';
import type { PgPool } from './postgres.js';
import { orUnavailable } from './unavailable.js';

// Outside any real timestamp PostgreSQL takes (its range is 4713 BC to 294276 AD).
const EARLIEST = new Date('0001-01-01T00:00:00Z');
const LATEST = new Date('9999-12-31T00:00:00Z');
const PRUNE_BATCH = 5000;

export interface AsyncAuditReader {
  list(query: AuditQuery): Promise<{ rows: AuditRow[]; total: number }>;
}

interface Row {
  api_key_id: string;
  tenant_name: string;
  route: string;
  status: number;
  at: Date;
  request_id: string;
  path: string;
  bytes: string | null;
  duration_ms: number;
  snapshot_id: string | null;
}

export function createPostgresAuditReader(pg: PgPool): AsyncAuditReader {
  return {
    list: (q) =>
      orUnavailable('PostgreSQL', async () => {
        const since = q.sinceMs == null ? EARLIEST : new Date(q.sinceMs);
        const until = q.untilMs == null ? LATEST : new Date(q.untilMs);
        const [page, count] = await Promise.all([
          pg.query<Row>(`SELECT api_key_id, tenant_name, route, status, at, request_id, path, bytes, duration_ms, snapshot_id
            FROM audit_log WHERE api_key_id = $1 AND at >= $2 AND at < $3 ORDER BY at DESC, id DESC LIMIT $4 OFFSET $5`, [q.keyId, since, until, q.limit, q.offset]),
          pg.query<{ n: string }>('SELECT count(*) AS n FROM audit_log WHERE api_key_id = $1 AND at >= $2 AND at < $3', [q.keyId, since, until]),
        ]);
        return { rows: page.rows.map(toRow), total: Number(count.rows[0].n) };
      }),
  };
}

function toRow(r: Row): AuditRow {
  return {
    apiKeyId: r.api_key_id,
    tenantName: r.tenant_name,
    route: r.route,
    status: r.status,
    timestamp: r.at.toISOString(),
    requestId: r.request_id,
    path: r.path,
    // bigint arrives as a string (it may exceed 2^53; a body length does not).
    bytes: r.bytes === null ? null : Number(r.bytes),
    durationMs: r.duration_ms,
    snapshotId: r.snapshot_id,
  };
}

export interface AsyncAuditPruner {
  /** Deletes rows older than the retention; resolves with how many went. */
  prune(): Promise<number>;
}

export function createPostgresAuditPruner(pg: PgPool, options: { retentionDays: number; clock?: () => number }): AsyncAuditPruner {
  const clock = options.clock ?? Date.now;
  return {
    prune: () =>
      orUnavailable('PostgreSQL', async () => {
        const cutoff = new Date(clock() - options.retentionDays * MS_PER_DAY);
        let total = 0;
        for (;;) {
          const { rowCount } = await pg.query(`DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE at < $1 LIMIT ${PRUNE_BATCH})`, [cutoff]);
          total += rowCount ?? 0;
          if ((rowCount ?? 0) < PRUNE_BATCH) return total;
        }
      }),
  };
}
