/**
 * What webhooks keep, behind one interface implemented on both states: the SQLite file
 * (sqlite-store.ts, synchronous) and the fleet's PostgreSQL (postgres-store.ts, every answer a
 * promise); callers (answers.ts, sender.ts) await every call, so either serves. What is kept:
 * endpoints per tenant, the snapshots already announced, and one delivery per (endpoint, snapshot). Every method that changes rows is one transaction, and the two that
 * several processes race on are built so they cannot double-deliver: `announce` queues deliveries
 * only for the process whose insert of the snapshot row won, and `claim` leases a due delivery to
 * one process at a time (a lease that runs out, after a crash, lets another process retry it).
 */
import { CatalogError } from '../../snapshots/errors.js';
import type { MaybeAsync } from '../route-table/route.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed', 'cancelled'];

/** An endpoint as operators and its partner see it: never its secret. */
export interface EndpointRecord {
  endpointId: string;
  tenant: string;
  url: string;
  description: string | null;
  createdAt: string;
  secretRotatedAt: string | null;
}

/** The answer of create and rotate: the only time the secret is shown. */
export interface EndpointWithSecret extends EndpointRecord {
  secret: string;
}

export interface DeliveryRecord {
  deliveryId: string;
  endpointId: string;
  snapshotId: string;
  status: DeliveryStatus;
  attempts: number;
  /** HTTP status of the last answer, or null (none yet, or no answer: a timeout, a refused connection). */
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  /** When the next attempt is due (pending only). */
  nextAttemptAt: string | null;
  /** When it was delivered, given up or cancelled. */
  finishedAt: string | null;
}

/** A due delivery leased to one sender, with what it needs to send it. */
export interface ClaimedDelivery {
  deliveryId: string;
  endpointId: string;
  tenant: string;
  snapshotId: string;
  url: string;
  secret: string;
  /** The snapshot summary JSON stored when the snapshot was announced. */
  summary: string;
  attempts: number;
  createdMs: number;
}

export interface AttemptOutcome {
  status: Exclude<DeliveryStatus, 'cancelled'>;
  /** The attempts made, this one included. */
  attempts: number;
  nextAttemptMs: number | null;
  lastStatus: number | null;
  lastError: string | null;
  nowMs: number;
}

export interface DeliveryQuery {
  tenant: string;
  endpointId?: string;
  status?: DeliveryStatus;
  offset: number;
  limit: number;
}

/** The operations as the SQLite store answers them (synchronously). */
export interface SyncWebhookStore {
  create(request: { tenant: string; url: string; description: string | null }): EndpointWithSecret;
  list(filter?: { tenant?: string }): EndpointRecord[];
  /** Removes the endpoint; its pending deliveries become `cancelled`, its log stays readable by its tenant. */
  delete(endpointId: string): EndpointRecord;
  /** A new secret; the next attempt of every delivery is signed with it. */
  rotateSecret(endpointId: string): EndpointWithSecret;
  /**
   * Records `snapshotId` as announced and queues one delivery per endpoint of every tenant, in one
   * transaction; a snapshot announced before (by this process or another) queues nothing. Returns
   * the number of deliveries queued.
   */
  announce(snapshotId: string, summary: string, nowMs: number): number;
  /** Leases up to `limit` due pending deliveries to `owner` until nowMs + leaseMs. */
  claim(owner: string, nowMs: number, leaseMs: number, limit: number): ClaimedDelivery[];
  /** Stores an attempt's outcome and ends the lease; false when the lease was lost meanwhile. */
  settle(deliveryId: string, owner: string, outcome: AttemptOutcome): boolean;
  /** Ends a lease without counting an attempt (the sender is stopping). */
  release(deliveryId: string, owner: string): void;
  deliveries(query: DeliveryQuery): { rows: DeliveryRecord[]; total: number };
  /** Deletes finished deliveries older than `beforeMs`; returns how many. */
  prune(beforeMs: number): number;
}

/** Either store: the callers await every answer. */
export type WebhookStore = MaybeAsync<SyncWebhookStore>;

/** The fleet's store: every answer across the network. */
export type AsyncWebhookStore = { [K in keyof SyncWebhookStore]: (...args: Parameters<SyncWebhookStore[K]>) => Promise<ReturnType<SyncWebhookStore[K]>> };

export const noSuchEndpoint = (endpointId: string): CatalogError =>
  new CatalogError('not_found', `No webhook endpoint ${endpointId}.`, { endpointId });
