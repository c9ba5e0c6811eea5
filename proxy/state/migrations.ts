/**
 * Schema of the proxy's state file, one migration per `user_version` step. A migration is never
 * edited once released: a change is a new entry at the end, so a file made by any earlier version
 * upgrades in place.
 */
export interface Migration {
  /** The `user_version` the file has after this migration ran. */
  version: number;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      -- Only the SHA-256 of a key is kept (API.md §4); key_id is the first 8 characters of its suffix.
      CREATE TABLE api_keys (
        key_id      TEXT PRIMARY KEY,
        key_hash    BLOB NOT NULL,
        tenant      TEXT NOT NULL,
        tier        TEXT NOT NULL,
        created_at  TEXT NOT NULL,
        expires_at  TEXT,
        revoked_at  TEXT,
        replaced_by TEXT
      ) STRICT;
      CREATE INDEX api_keys_tenant ON api_keys (tenant, created_at);

      -- One row per key and fixed 60 s window; window_start is in seconds since the epoch.
      CREATE TABLE rate_counters (
        key_id       TEXT NOT NULL,
        window_start INTEGER NOT NULL,
        count        INTEGER NOT NULL,
        PRIMARY KEY (key_id, window_start)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE audit_log (
        id          INTEGER PRIMARY KEY,
        api_key_id  TEXT NOT NULL,
        tenant_name TEXT NOT NULL,
        route       TEXT NOT NULL,
        status      INTEGER NOT NULL,
        ts_ms       INTEGER NOT NULL,
        timestamp   TEXT NOT NULL,
        request_id  TEXT NOT NULL,
        path        TEXT NOT NULL,
        bytes       INTEGER,
        duration_ms INTEGER NOT NULL,
        snapshot_id TEXT
      ) STRICT;
      CREATE INDEX audit_log_key_time ON audit_log (api_key_id, ts_ms DESC, id DESC);
      CREATE INDEX audit_log_time ON audit_log (ts_ms);
    `,
  },
  {
    version: 2,
    sql: `
      -- One row, rewritten by GET /readyz: a real committed write is the only proof that the state
      -- file can take audit rows and counters (a full disk or a read-only mount fails it).
      CREATE TABLE readiness_probe (
        id         INTEGER PRIMARY KEY CHECK (id = 1),
        checked_ms INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 3,
    sql: `
      -- Webhooks (proxy/webhooks/). The secret is stored as is: the proxy signs with it (a key's hash
      -- would not do); the file's permissions protect it like the rest of the state (docs/operations.md).
      CREATE TABLE webhook_endpoints (
        endpoint_id        TEXT PRIMARY KEY,
        tenant             TEXT NOT NULL,
        url                TEXT NOT NULL,
        description        TEXT,
        secret             TEXT NOT NULL,
        created_at         TEXT NOT NULL,
        secret_rotated_at  TEXT
      ) STRICT;
      CREATE INDEX webhook_endpoints_tenant ON webhook_endpoints (tenant, created_at);

      -- One row per snapshot announced: its insert decides which process queues the deliveries.
      CREATE TABLE webhook_snapshots (
        snapshot_id  TEXT PRIMARY KEY,
        summary      TEXT NOT NULL,
        announced_ms INTEGER NOT NULL
      ) STRICT;

      -- One delivery per endpoint and snapshot, never two (UNIQUE); a lease marks the process sending it.
      CREATE TABLE webhook_deliveries (
        delivery_id     TEXT PRIMARY KEY,
        endpoint_id     TEXT NOT NULL,
        tenant          TEXT NOT NULL,
        snapshot_id     TEXT NOT NULL,
        status          TEXT NOT NULL,
        attempts        INTEGER NOT NULL DEFAULT 0,
        created_ms      INTEGER NOT NULL,
        next_attempt_ms INTEGER,
        lease_owner     TEXT,
        lease_until_ms  INTEGER,
        last_attempt_ms INTEGER,
        last_status     INTEGER,
        last_error      TEXT,
        finished_ms     INTEGER,
        UNIQUE (endpoint_id, snapshot_id)
      ) STRICT;
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_ms);
      CREATE INDEX webhook_deliveries_tenant ON webhook_deliveries (tenant, created_ms DESC, delivery_id);
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;
