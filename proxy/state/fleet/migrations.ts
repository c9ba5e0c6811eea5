/**
 * Schema of the fleet's PostgreSQL store of record, one migration per version (applied by
 * migrate.ts). As with the SQLite state (../migrations.ts), a released migration is never edited:
 * a change is a new entry at the end. The tables hold what the SQLite state holds, except the rate
 * counters, which live in Redis: keys (a tenant is a name on its keys, as in SQLite), audit rows
 * and webhooks.
 */
import type { Migration } from '../migrations.js';

export const PG_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      -- Only the SHA-256 of a key is kept (API.md §4); key_id is the first 8 characters of its suffix.
      CREATE TABLE api_keys (
        key_id      text PRIMARY KEY,
        key_hash    bytea NOT NULL,
        tenant      text NOT NULL,
        tier        text NOT NULL,
        created_at  timestamptz NOT NULL,
        expires_at  timestamptz,
        revoked_at  timestamptz,
        replaced_by text
      );
      CREATE INDEX api_keys_tenant ON api_keys (tenant, created_at);

      -- One row per answered bearer request, moved here from the Redis stream by the drainer.
      -- stream_id (the entry's Redis stream ID) makes the move idempotent: a re-delivered entry
      -- conflicts and is skipped. id keeps the order rows arrived in, for ties of at.
      CREATE TABLE audit_log (
        id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        stream_id   text NOT NULL UNIQUE,
        api_key_id  text NOT NULL,
        tenant_name text NOT NULL,
        route       text NOT NULL,
        status      integer NOT NULL,
        at          timestamptz NOT NULL,
        request_id  text NOT NULL,
        path        text NOT NULL,
        bytes       bigint,
        duration_ms integer NOT NULL,
        snapshot_id text
      );
      CREATE INDEX audit_log_key_time ON audit_log (api_key_id, at DESC, id DESC);
      CREATE INDEX audit_log_time ON audit_log (at);

      -- One row per host, rewritten by its readiness probe: a committed write is the proof that the
      -- store of record takes rows (a read-only standby or a full disk fails it).
      CREATE TABLE readiness_probe (
        host       text PRIMARY KEY,
        checked_at timestamptz NOT NULL
      );
    `,
  },
  {
    version: 2,
    sql: `
      -- Webhooks (proxy/webhooks/postgres-store.ts), the tables of the SQLite state's migration 3.
      -- The secret is stored as is: the proxy signs with it (a hash would not do).
      CREATE TABLE webhook_endpoints (
        endpoint_id        text PRIMARY KEY,
        tenant             text NOT NULL,
        url                text NOT NULL,
        description        text,
        secret             text NOT NULL,
        created_at         timestamptz NOT NULL,
        secret_rotated_at  timestamptz
      );
      CREATE INDEX webhook_endpoints_tenant ON webhook_endpoints (tenant, created_at);

      -- One row per snapshot announced: its insert decides which host queues the deliveries.
      CREATE TABLE webhook_snapshots (
        snapshot_id  text PRIMARY KEY,
        summary      text NOT NULL,
        announced_ms bigint NOT NULL
      );

      -- One delivery per endpoint and snapshot, never two (UNIQUE); a lease marks the host sending it.
      -- Times in ms since the epoch, as the sender computes them (its clock, not the server's).
      CREATE TABLE webhook_deliveries (
        delivery_id     text PRIMARY KEY,
        endpoint_id     text NOT NULL,
        tenant          text NOT NULL,
        snapshot_id     text NOT NULL,
        status          text NOT NULL,
        attempts        integer NOT NULL DEFAULT 0,
        created_ms      bigint NOT NULL,
        next_attempt_ms bigint,
        lease_owner     text,
        lease_until_ms  bigint,
        last_attempt_ms bigint,
        last_status     integer,
        last_error      text,
        finished_ms     bigint,
        UNIQUE (endpoint_id, snapshot_id)
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_ms);
      CREATE INDEX webhook_deliveries_tenant ON webhook_deliveries (tenant, created_ms DESC, delivery_id);
    `,
  },
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS[PG_MIGRATIONS.length - 1].version;
