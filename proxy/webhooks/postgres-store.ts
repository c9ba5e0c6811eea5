/**
 * The WebhookStore on the fleet's PostgreSQL (migration 2 of proxy/state/fleet/migrations.ts), the
 * same semantics as the SQLite store (sqlite-store.ts) for many hosts at once:
 *   announce  inserts the snapshot row with ON CONFLICT DO NOTHING and, in the same transaction,
 *             queues deliveries only when its insert won (a second host's insert waits for the
 *             first to commit, then conflicts and queues nothing);
 *   claim     leases due rows in one UPDATE whose subquery locks them FOR UPDATE SKIP LOCKED, so
 *             two hosts claiming at once take different rows and never wait for each other;
 *   settle    writes only while the lease is still the caller's.
 * The SELECTs cast to the SQLite rows' shapes (ISO text, ms as numbers), so both share rows.ts.
 *
 * @example
 *   const store = createPostgresWebhookStore(fleet.pg);
 *   const { endpointId, secret } = await store.create({ tenant: 'acme', url: 'https://hooks.acme.example/catalog', description: null });
 */
import type { PgPool } from '../state/fleet/postgres.js';
import { inPgTransaction, pgRows } from '../state/fleet/pg-query.js';
import { newDeliveryId, newEndpointId, newSecret } from './ids.js';
import { claimedOf, deliveryOf, endpointOf, type ClaimedRow, type DeliveryRow, type EndpointRow } from './rows.js';
import { noSuchEndpoint, type AsyncWebhookStore } from './store.js';

const isoText = (column: string, as = column) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${as}`;
const ENDPOINT_SELECT = `endpoint_id, tenant, url, description, secret, ${isoText('created_at')}, ${isoText('secret_rotated_at')}`;
// bigint comes back from node-postgres as text; float8 as a number (exact for ms since the epoch).
const ms = (column: string, as = column) => `${column}::float8 AS ${as}`;
const DELIVERY_SELECT = `delivery_id, endpoint_id, snapshot_id, status, attempts, ${ms('created_ms')}, ${ms('next_attempt_ms')}, ${ms('last_attempt_ms')}, last_status, last_error, ${ms('finished_ms')}`;

export function createPostgresWebhookStore(pg: PgPool, options: { clock?: () => number } = {}): AsyncWebhookStore {
  const clock = options.clock ?? Date.now;
  const one = async <T extends object>(endpointId: string, rows: Promise<T[]>): Promise<T> => {
    const row = (await rows)[0];
    if (row === undefined) throw noSuchEndpoint(endpointId);
    return row;
  };

  return {
    async create({ tenant, url, description }) {
      const record = { endpointId: newEndpointId(), tenant, url, description, secret: newSecret(), createdAt: new Date(clock()).toISOString() };
      await pgRows(pg, `INSERT INTO webhook_endpoints (endpoint_id, tenant, url, description, secret, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
        [record.endpointId, tenant, url, description, record.secret, record.createdAt]);
      return { ...record, secretRotatedAt: null };
    },
    async list(filter = {}) {
      const rows = filter.tenant === undefined
        ? await pgRows<EndpointRow>(pg, `SELECT ${ENDPOINT_SELECT} FROM webhook_endpoints ORDER BY created_at, endpoint_id`)
        : await pgRows<EndpointRow>(pg, `SELECT ${ENDPOINT_SELECT} FROM webhook_endpoints WHERE tenant = $1 ORDER BY created_at, endpoint_id`, [filter.tenant]);
      return rows.map(endpointOf);
    },
    delete: (endpointId) => inPgTransaction(pg, async (client) => {
      // FOR UPDATE: a claim racing the delete either leased before it (the attempt may still
      // arrive, as documented) or finds the deliveries cancelled.
      const row = await one(endpointId, pgRows<EndpointRow>(client, `SELECT ${ENDPOINT_SELECT} FROM webhook_endpoints WHERE endpoint_id = $1 FOR UPDATE`, [endpointId]));
      await pgRows(client, `UPDATE webhook_deliveries SET status = 'cancelled', finished_ms = $2, next_attempt_ms = NULL, lease_owner = NULL, lease_until_ms = NULL
        WHERE endpoint_id = $1 AND status = 'pending'`, [endpointId, clock()]);
      await pgRows(client, 'DELETE FROM webhook_endpoints WHERE endpoint_id = $1', [endpointId]);
      return endpointOf(row);
    }),
    async rotateSecret(endpointId) {
      const secret = newSecret();
      const row = await one(endpointId, pgRows<EndpointRow>(pg, `UPDATE webhook_endpoints SET secret = $2, secret_rotated_at = $3 WHERE endpoint_id = $1 RETURNING ${ENDPOINT_SELECT}`,
        [endpointId, secret, new Date(clock()).toISOString()]));
      return { ...endpointOf(row), secret };
    },
    announce: (snapshotId, summary, nowMs) => inPgTransaction(pg, async (client) => {
      const won = await pgRows(client, 'INSERT INTO webhook_snapshots (snapshot_id, summary, announced_ms) VALUES ($1, $2, $3) ON CONFLICT (snapshot_id) DO NOTHING RETURNING snapshot_id',
        [snapshotId, summary, nowMs]);
      if (won.length === 0) return 0;
      const endpoints = await pgRows<{ endpoint_id: string; tenant: string }>(client, 'SELECT endpoint_id, tenant FROM webhook_endpoints ORDER BY created_at, endpoint_id');
      if (endpoints.length === 0) return 0;
      const queued = await pgRows(client, `INSERT INTO webhook_deliveries (delivery_id, endpoint_id, tenant, snapshot_id, status, attempts, created_ms, next_attempt_ms)
        SELECT d, e, t, $4, 'pending', 0, $5, $5 FROM unnest($1::text[], $2::text[], $3::text[]) AS u(d, e, t)
        ON CONFLICT (endpoint_id, snapshot_id) DO NOTHING RETURNING delivery_id`,
        [endpoints.map(() => newDeliveryId()), endpoints.map((e) => e.endpoint_id), endpoints.map((e) => e.tenant), snapshotId, nowMs]);
      return queued.length;
    }),
    async claim(owner, nowMs, leaseMs, limit) {
      if (limit <= 0) return [];
      // The joins drop a delivery whose endpoint is gone (none is pending: delete cancels them in its
      // transaction), rather than send it without a secret.
      const rows = await pgRows<ClaimedRow>(pg, `UPDATE webhook_deliveries d SET lease_owner = $1, lease_until_ms = $2
        FROM webhook_endpoints e, webhook_snapshots s
        WHERE d.delivery_id IN (
          SELECT delivery_id FROM webhook_deliveries
          WHERE status = 'pending' AND next_attempt_ms <= $3 AND (lease_until_ms IS NULL OR lease_until_ms <= $3)
          ORDER BY next_attempt_ms LIMIT $4 FOR UPDATE SKIP LOCKED)
        AND e.endpoint_id = d.endpoint_id AND s.snapshot_id = d.snapshot_id
        RETURNING d.delivery_id, d.endpoint_id, d.tenant, d.snapshot_id, d.attempts, ${ms('d.created_ms', 'created_ms')}, e.url, e.secret, s.summary`,
      [owner, nowMs + leaseMs, nowMs, limit]);
      return rows.map(claimedOf);
    },
    async settle(deliveryId, owner, outcome) {
      const finishedMs = outcome.status === 'pending' ? null : outcome.nowMs;
      const rows = await pgRows(pg, `UPDATE webhook_deliveries SET status = $3, attempts = $4, next_attempt_ms = $5, last_attempt_ms = $6,
        last_status = $7, last_error = $8, finished_ms = $9, lease_owner = NULL, lease_until_ms = NULL
        WHERE delivery_id = $1 AND lease_owner = $2 AND status = 'pending' RETURNING delivery_id`,
      [deliveryId, owner, outcome.status, outcome.attempts, outcome.nextAttemptMs, outcome.nowMs, outcome.lastStatus, outcome.lastError, finishedMs]);
      return rows.length === 1;
    },
    async release(deliveryId, owner) {
      await pgRows(pg, 'UPDATE webhook_deliveries SET lease_owner = NULL, lease_until_ms = NULL WHERE delivery_id = $1 AND lease_owner = $2', [deliveryId, owner]);
    },
    async deliveries({ tenant, endpointId, status, offset, limit }) {
      const params: unknown[] = [tenant];
      const clauses = ['tenant = $1'];
      if (endpointId !== undefined) clauses.push(`endpoint_id = $${params.push(endpointId)}`);
      if (status !== undefined) clauses.push(`status = $${params.push(status)}`);
      const where = clauses.join(' AND ');
      const [{ n }] = await pgRows<{ n: number }>(pg, `SELECT count(*)::integer AS n FROM webhook_deliveries WHERE ${where}`, params);
      const rows = await pgRows<DeliveryRow>(pg, `SELECT ${DELIVERY_SELECT} FROM webhook_deliveries WHERE ${where}
        ORDER BY created_ms DESC, delivery_id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [...params, limit, offset]);
      return { rows: rows.map(deliveryOf), total: n };
    },
    async prune(beforeMs) {
      return (await pgRows(pg, "DELETE FROM webhook_deliveries WHERE status <> 'pending' AND finished_ms < $1 RETURNING delivery_id", [beforeMs])).length;
    },
  };
}
