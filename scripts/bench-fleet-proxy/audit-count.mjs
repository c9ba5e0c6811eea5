#!/usr/bin/env node
// Prints the number of audit rows in the fleet's PostgreSQL (the store of record) and the entries
// still in the Redis stream: what scripts/bench-fleet-proxy.sh compares with the requests wrk saw
// answered. The URLs come from CATALOG_STATE_URL and CATALOG_REDIS_URL (never the command line: the
// PostgreSQL one holds a password); the stream is <CATALOG_REDIS_PREFIX or catalog:>audit.
//
//   node scripts/bench-fleet-proxy/audit-count.mjs      # prints "<rows> <stream length>"
import pg from 'pg';
import { Redis } from 'ioredis';

const client = new pg.Client(process.env.CATALOG_STATE_URL);
await client.connect();
const redis = new Redis(process.env.CATALOG_REDIS_URL, { lazyConnect: true });
await redis.connect();
try {
  const rows = (await client.query('SELECT count(*)::bigint AS n FROM audit_log')).rows[0].n;
  const pending = await redis.xlen(`${process.env.CATALOG_REDIS_PREFIX ?? 'catalog:'}audit`);
  process.stdout.write(`${rows} ${pending}\n`);
} finally {
  await client.end();
  redis.disconnect();
}
