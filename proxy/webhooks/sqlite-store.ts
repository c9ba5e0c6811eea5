/**
 * The WebhookStore on the proxy's SQLite state file (migration 3 of proxy/state/migrations.ts).
 * Several processes share the file: `announce` inserts the snapshot row with ON CONFLICT DO NOTHING
 * and queues deliveries only when its insert won; `claim` selects and leases due rows inside one
 * IMMEDIATE transaction, so two processes never lease the same row.
 *
 * @example
 *   const store = createSqliteWebhookStore(openStateDb(file));
 *   const { endpointId, secret } = store.create({ tenant: 'acme', url: 'https://hooks.acme.example/catalog', description: null });
 */
import type { StateDb } from '../state/open.js';
import { newDeliveryId, newEndpointId, newSecret } from './ids.js';
import {
  claimedOf, deliveryOf, endpointOf, DELIVERY_COLUMNS, ENDPOINT_COLUMNS, type ClaimedRow, type DeliveryRow, type EndpointRow,
} from './rows.js';
import { noSuchEndpoint, type AttemptOutcome, type ClaimedDelivery, type EndpointRecord, type EndpointWithSecret, type SyncWebhookStore } from './store.js';

export function createSqliteWebhookStore(state: StateDb, options: { clock?: () => number } = {}): SyncWebhookStore {
  const clock = options.clock ?? Date.now;
  const db = state.sqlite;
  const insertEndpoint = db.prepare(`INSERT INTO webhook_endpoints (${ENDPOINT_COLUMNS}) VALUES (@endpointId, @tenant, @url, @description, @secret, @createdAt, NULL)`);
  const endpointById = db.prepare<[string], EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE endpoint_id = ?`);
  const allEndpoints = db.prepare<[], EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints ORDER BY created_at, endpoint_id`);
  const endpointsOf = db.prepare<[string], EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE tenant = ? ORDER BY created_at, endpoint_id`);
  const deleteEndpoint = db.prepare('DELETE FROM webhook_endpoints WHERE endpoint_id = ?');
  const cancelPending = db.prepare(`UPDATE webhook_deliveries SET status = 'cancelled', finished_ms = @now, next_attempt_ms = NULL, lease_owner = NULL, lease_until_ms = NULL
    WHERE endpoint_id = @endpointId AND status = 'pending'`);
  const setSecret = db.prepare('UPDATE webhook_endpoints SET secret = @secret, secret_rotated_at = @now WHERE endpoint_id = @endpointId');
  const insertSnapshot = db.prepare('INSERT INTO webhook_snapshots (snapshot_id, summary, announced_ms) VALUES (?, ?, ?) ON CONFLICT (snapshot_id) DO NOTHING');
  const endpointIds = db.prepare<[], { endpoint_id: string; tenant: string }>('SELECT endpoint_id, tenant FROM webhook_endpoints ORDER BY created_at, endpoint_id');
  const insertDelivery = db.prepare(`INSERT INTO webhook_deliveries (delivery_id, endpoint_id, tenant, snapshot_id, status, attempts, created_ms, next_attempt_ms)
    VALUES (?, ?, ?, ?, 'pending', 0, ?, ?) ON CONFLICT (endpoint_id, snapshot_id) DO NOTHING`);
  const dueIds = db.prepare<[number, number, number], { delivery_id: string }>(`SELECT delivery_id FROM webhook_deliveries
    WHERE status = 'pending' AND next_attempt_ms <= ? AND (lease_until_ms IS NULL OR lease_until_ms <= ?) ORDER BY next_attempt_ms LIMIT ?`);
  const lease = db.prepare('UPDATE webhook_deliveries SET lease_owner = ?, lease_until_ms = ? WHERE delivery_id = ?');
  const claimed = db.prepare<[string], ClaimedRow>(`SELECT d.delivery_id, d.endpoint_id, d.tenant, d.snapshot_id, d.attempts, d.created_ms, e.url, e.secret, s.summary
    FROM webhook_deliveries d JOIN webhook_endpoints e USING (endpoint_id) JOIN webhook_snapshots s USING (snapshot_id) WHERE d.delivery_id = ?`);
  const settleRow = db.prepare(`UPDATE webhook_deliveries SET status = @status, attempts = @attempts, next_attempt_ms = @nextAttemptMs, last_attempt_ms = @nowMs,
    last_status = @lastStatus, last_error = @lastError, finished_ms = @finishedMs, lease_owner = NULL, lease_until_ms = NULL
    WHERE delivery_id = @deliveryId AND lease_owner = @owner AND status = 'pending'`);
  const releaseRow = db.prepare('UPDATE webhook_deliveries SET lease_owner = NULL, lease_until_ms = NULL WHERE delivery_id = ? AND lease_owner = ?');
  const pruneRows = db.prepare("DELETE FROM webhook_deliveries WHERE status <> 'pending' AND finished_ms < ?");

  const nowIso = () => new Date(clock()).toISOString();
  const mustGet = (endpointId: string): EndpointRow => {
    const row = endpointById.get(endpointId);
    if (row === undefined) throw noSuchEndpoint(endpointId);
    return row;
  };

  const claimTx = db.transaction((owner: string, nowMs: number, leaseMs: number, limit: number): ClaimedDelivery[] => {
    const out: ClaimedDelivery[] = [];
    for (const { delivery_id } of dueIds.all(nowMs, nowMs, limit)) {
      const row = claimed.get(delivery_id);
      // A delivery whose endpoint was deleted is cancelled in the same transaction as the delete,
      // so a due row always joins; a missing row is skipped rather than sent without a secret.
      if (row === undefined) continue;
      lease.run(owner, nowMs + leaseMs, delivery_id);
      out.push(claimedOf(row));
    }
    return out;
  });

  return {
    create({ tenant, url, description }) {
      const record = { endpointId: newEndpointId(), tenant, url, description, secret: newSecret(), createdAt: nowIso() };
      insertEndpoint.run(record);
      return { ...record, secretRotatedAt: null };
    },
    list(filter = {}) {
      return (filter.tenant === undefined ? allEndpoints.all() : endpointsOf.all(filter.tenant)).map(endpointOf);
    },
    delete: db.transaction((endpointId: string): EndpointRecord => {
      const row = mustGet(endpointId);
      cancelPending.run({ endpointId, now: clock() });
      deleteEndpoint.run(endpointId);
      return endpointOf(row);
    }),
    rotateSecret: db.transaction((endpointId: string): EndpointWithSecret => {
      mustGet(endpointId);
      const secret = newSecret();
      setSecret.run({ endpointId, secret, now: nowIso() });
      return { ...endpointOf(mustGet(endpointId)), secret };
    }),
    announce: (snapshotId, summary, nowMs) => db.transaction(() => {
      if (insertSnapshot.run(snapshotId, summary, nowMs).changes === 0) return 0;
      let queued = 0;
      for (const e of endpointIds.all()) queued += insertDelivery.run(newDeliveryId(), e.endpoint_id, e.tenant, snapshotId, nowMs, nowMs).changes;
      return queued;
    }).immediate(),
    claim: (owner, nowMs, leaseMs, limit) => (limit <= 0 ? [] : claimTx.immediate(owner, nowMs, leaseMs, limit)),
    settle(deliveryId, owner, outcome: AttemptOutcome) {
      const finishedMs = outcome.status === 'pending' ? null : outcome.nowMs;
      return settleRow.run({ deliveryId, owner, ...outcome, finishedMs }).changes === 1;
    },
    release(deliveryId, owner) {
      releaseRow.run(deliveryId, owner);
    },
    deliveries({ tenant, endpointId, status, offset, limit }) {
      // Only bound parameters are passed: better-sqlite3 refuses a named value the statement lacks.
      const filter: Record<string, string> = { tenant };
      if (endpointId !== undefined) filter.endpointId = endpointId;
      if (status !== undefined) filter.status = status;
      const clause = Object.keys(filter).map((k) => `${k === 'endpointId' ? 'endpoint_id' : k} = @${k}`).join(' AND ');
      const total = (db.prepare(`SELECT count(*) AS n FROM webhook_deliveries WHERE ${clause}`).get(filter) as { n: number }).n;
      const rows = db.prepare<Record<string, unknown>, DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE ${clause}
        ORDER BY created_ms DESC, delivery_id LIMIT @limit OFFSET @offset`).all({ ...filter, offset, limit });
      return { rows: rows.map(deliveryOf), total };
    },
    prune: (beforeMs) => pruneRows.run(beforeMs).changes,
  };
}
