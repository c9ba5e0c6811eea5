/**
 * The webhook tables' rows as both stores read them (sqlite-store.ts, postgres-store.ts, whose
 * SELECTs cast to the same shapes), and what the API and the sender make of them.
 */
import type { ClaimedDelivery, DeliveryRecord, DeliveryStatus, EndpointRecord } from './store.js';

export interface EndpointRow {
  endpoint_id: string;
  tenant: string;
  url: string;
  description: string | null;
  secret: string;
  created_at: string;
  secret_rotated_at: string | null;
}

export interface DeliveryRow {
  delivery_id: string;
  endpoint_id: string;
  snapshot_id: string;
  status: DeliveryStatus;
  attempts: number;
  created_ms: number;
  next_attempt_ms: number | null;
  last_attempt_ms: number | null;
  last_status: number | null;
  last_error: string | null;
  finished_ms: number | null;
}

export const ENDPOINT_COLUMNS = 'endpoint_id, tenant, url, description, secret, created_at, secret_rotated_at';
export const DELIVERY_COLUMNS = 'delivery_id, endpoint_id, snapshot_id, status, attempts, created_ms, next_attempt_ms, last_attempt_ms, last_status, last_error, finished_ms';

export const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function endpointOf(row: EndpointRow): EndpointRecord {
  return { endpointId: row.endpoint_id, tenant: row.tenant, url: row.url, description: row.description, createdAt: row.created_at, secretRotatedAt: row.secret_rotated_at };
}

export function deliveryOf(row: DeliveryRow): DeliveryRecord {
  return {
    deliveryId: row.delivery_id, endpointId: row.endpoint_id, snapshotId: row.snapshot_id, status: row.status, attempts: row.attempts,
    lastStatus: row.last_status, lastError: row.last_error, createdAt: iso(row.created_ms)!, lastAttemptAt: iso(row.last_attempt_ms),
    nextAttemptAt: row.status === 'pending' ? iso(row.next_attempt_ms) : null, finishedAt: iso(row.finished_ms),
  };
}

export interface ClaimedRow {
  delivery_id: string;
  endpoint_id: string;
  tenant: string;
  snapshot_id: string;
  attempts: number;
  created_ms: number;
  url: string;
  secret: string;
  summary: string;
}

export function claimedOf(row: ClaimedRow): ClaimedDelivery {
  return {
    deliveryId: row.delivery_id, endpointId: row.endpoint_id, tenant: row.tenant, snapshotId: row.snapshot_id, url: row.url,
    secret: row.secret, summary: row.summary, attempts: row.attempts, createdMs: row.created_ms,
  };
}
