/**
 * Applies the fleet schema (migrations.ts) at start, from any number of hosts at once. One
 * transaction holds a transaction-level advisory lock while it reads the applied versions and runs
 * the missing ones, so concurrent starts queue on the lock and the later ones find nothing to do.
 * PostgreSQL's DDL is transactional: a migration that fails leaves no half-made schema behind.
 *
 * @example
 *   const applied = await migratePostgres(pg);   // [1] on a fresh database, [] afterwards
 */
import { CatalogError } from '../../../snapshots/errors.js';
import type { Migration } from '../migrations.js';
import { PG_MIGRATIONS } from './migrations.js';
import type { PgPool } from './postgres.js';
import { orUnavailable } from './unavailable.js';

/** The advisory lock's key: any fixed 64-bit number no other program on the database uses ("catalog1"). */
export const MIGRATION_LOCK_KEY = 0x636174616c6f6731n;

export async function migratePostgres(pool: PgPool, migrations: readonly Migration[] = PG_MIGRATIONS): Promise<number[]> {
  const client = await orUnavailable('PostgreSQL', () => pool.connect());
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    // Created under the lock: two hosts running CREATE TABLE IF NOT EXISTS at once can both fail
    // on the catalog's unique index otherwise.
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    integer PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const done = new Set(rows.map((r) => r.version));
    const newest = Math.max(0, ...done);
    const known = migrations[migrations.length - 1]?.version ?? 0;
    if (newest > known) {
      throw new CatalogError('config', `the PostgreSQL state has schema version ${newest}, newer than this program (${known}); upgrade this host`);
    }
    const applied: number[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [m.version]);
      applied.push(m.version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err instanceof CatalogError ? err : new CatalogError('unavailable', `could not migrate the PostgreSQL state: ${(err as Error).message}`, { retryAfter: 1 }, { cause: err });
  } finally {
    client.release();
  }
}
