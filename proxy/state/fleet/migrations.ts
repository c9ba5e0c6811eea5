/**
 * Schema of the fleet's PostgreSQL store of record, one migration per version (applied by
 * migrate.ts). As with the SQLite state (../migrations.ts), a released migration is never edited:
 * a change is a new entry at the end. The tables hold what the SQLite state holds, except the rate
 * counters, which live in Redis: keys (a tenant is a name on its keys, as in SQLite) and audit rows.
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
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS[PG_MIGRATIONS.length - 1].version;
