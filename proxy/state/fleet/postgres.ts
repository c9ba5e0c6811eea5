/**
 * Opens the fleet's PostgreSQL pool (node-postgres). An idle connection that the server drops
 * emits 'error' on the pool, which would crash the process without a listener; the pool replaces
 * the connection on the next query by itself, so a host recovers without a restart.
 *
 * @example
 *   const pg = openPostgres(process.env.CATALOG_STATE_URL!);
 *   await migratePostgres(pg);
 *   await pg.end();
 */
import pg from 'pg';
import { CatalogError } from '../../../snapshots/errors.js';

export type PgPool = pg.Pool;
export type PgClient = pg.PoolClient;

export interface OpenPostgresOptions {
  /** Connections this process may hold (each proxy process has its own pool). */
  max?: number;
  /** How long a query waits for a free connection or a new one before it fails (ms). */
  connectTimeoutMs?: number;
  /** Told about errors of idle connections (a restarted server, a dropped network). */
  onError?: (err: Error) => void;
}

export function openPostgres(url: string, options: OpenPostgresOptions = {}): PgPool {
  if (!/^postgres(ql)?:\/\//.test(url)) throw new CatalogError('config', `a PostgreSQL URL starts with postgres:// or postgresql://, not ${JSON.stringify(url.slice(0, 12))}`);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 3000,
    // A statement that hangs (a lock held by a stuck session) fails instead of holding a request forever.
    statement_timeout: 10_000,
  });
  pool.on('error', (err) => options.onError?.(err));
  return pool;
}
