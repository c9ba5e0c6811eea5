/**
 * The two ways the fleet's PostgreSQL stores (key-store.ts, webhooks/postgres-store.ts) talk to
 * the server: one statement's rows, and several statements in one transaction on one connection.
 * Any failure of the server becomes `unavailable` (unavailable.ts); a CatalogError thrown on
 * purpose inside a transaction (not found) rolls it back and passes through unchanged.
 *
 * @example
 *   const rows = await pgRows<{ key_id: string }>(pg, 'SELECT key_id FROM api_keys WHERE tenant = $1', ['acme']);
 *   await inPgTransaction(pg, async (client) => pgRows(client, 'DELETE FROM api_keys WHERE key_id = $1', [id]));
 */
import type { PgClient, PgPool } from './postgres.js';
import { orUnavailable } from './unavailable.js';

export type Queryable = PgPool | PgClient;

export const pgRows = <T extends object>(db: Queryable, sql: string, params: unknown[] = []): Promise<T[]> =>
  orUnavailable('PostgreSQL', async () => (await db.query<T>(sql, params)).rows);

export async function inPgTransaction<T>(pg: PgPool, work: (client: PgClient) => Promise<T>): Promise<T> {
  const client = await orUnavailable('PostgreSQL', () => pg.connect());
  try {
    await pgRows(client, 'BEGIN');
    const result = await work(client);
    await pgRows(client, 'COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
