/**
 * Opens (and creates or migrates) the proxy's SQLite state file: keys, rate counters, audit rows.
 * Every worker process opens the same file; WAL lets readers run beside the one writer, and
 * busy_timeout makes a writer wait for the lock instead of failing, which is what keeps the
 * counters exact across processes.
 *
 * @example
 *   const state = openStateDb('/var/lib/catalog/state.sqlite');
 *   const keys = createKeyStore(state);
 *   state.close();
 */
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { CatalogError } from '../../snapshots/errors.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import { makeDirsSync } from '../../snapshots/store/make-dirs.js';

/** Size the WAL file is cut back to when it restarts (SQLite's journal_size_limit). */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

export interface StateDb {
  readonly file: string;
  readonly sqlite: Database.Database;
  close(): void;
}

export interface OpenStateOptions {
  /** How long a write waits for another process's lock before failing (ms). */
  busyTimeoutMs?: number;
  /**
   * `PRAGMA wal_autocheckpoint` of this connection, in pages (SQLite's default 1000 when absent).
   * Serving processes set it high and leave checkpoints to a timer (state/checkpoints.ts): with the
   * default, the commit that crosses 1000 pages runs the checkpoint inside a request (5-10 ms).
   */
  walAutocheckpointPages?: number;
}

export function openStateDb(file: string, options: OpenStateOptions = {}): StateDb {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
    throw new CatalogError('config', 'busyTimeoutMs must be a non-negative integer');
  }
  const autocheckpoint = options.walAutocheckpointPages;
  if (autocheckpoint !== undefined && (!Number.isInteger(autocheckpoint) || autocheckpoint < 0)) {
    throw new CatalogError('config', 'walAutocheckpointPages must be a non-negative integer');
  }
  let sqlite: Database.Database;
  try {
    if (file !== ':memory:') makeDirsSync(dirname(file));
    sqlite = new Database(file);
  } catch (err) {
    throw new CatalogError('io', `cannot open the state file ${file}: ${(err as Error).message}`, {}, { cause: err });
  }
  try {
    // busy_timeout first, so the WAL switch and the migration below also wait for other processes.
    sqlite.pragma(`busy_timeout = ${busyTimeoutMs}`);
    sqlite.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a commit survives a process crash (the audit guarantee); only an OS crash
    // or power loss can drop the last transactions.
    sqlite.pragma('synchronous = NORMAL');
    if (autocheckpoint !== undefined) sqlite.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
    // After a checkpoint lets the WAL restart, a WAL file grown past this is cut back, so a burst
    // does not leave a large file behind for good.
    sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    migrate(sqlite, file);
  } catch (err) {
    sqlite.close();
    if (err instanceof CatalogError) throw err;
    throw new CatalogError('io', `cannot prepare the state file ${file}: ${(err as Error).message}`, {}, { cause: err });
  }
  return { file, sqlite, close: () => sqlite.close() };
}

function migrate(sqlite: Database.Database, file: string): void {
  const readVersion = () => sqlite.pragma('user_version', { simple: true }) as number;
  if (readVersion() === SCHEMA_VERSION) return;
  // IMMEDIATE takes the write lock before re-reading the version, so two processes starting on a
  // fresh file cannot both run the same migration.
  sqlite.transaction(() => {
    const current = readVersion();
    if (current > SCHEMA_VERSION) {
      throw new CatalogError('config', `the state file ${file} has schema version ${current}, newer than this program (${SCHEMA_VERSION})`);
    }
    for (const m of MIGRATIONS) {
      if (m.version <= current) continue;
      sqlite.exec(m.sql);
      sqlite.pragma(`user_version = ${m.version}`);
    }
  }).immediate();
}
