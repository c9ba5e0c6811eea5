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
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;
