/**
 * The fleet state's readiness: Redis answers a write (the limiter's work) and PostgreSQL commits
 * one (the drainer's and the key commands'). For /readyz: not ready while either fails, so a load
 * balancer drains the host, and ready again by itself once both answer.
 */
import type { Redis } from 'ioredis';
import type { FleetKeys } from './keys.js';
import { fleetKeys } from './keys.js';
import type { PgPool } from './postgres.js';
import { orUnavailable } from './unavailable.js';

/** Resolves when both servers took a write; fails with a CatalogError `unavailable` naming the one that did not. */
export async function probeFleetState(redis: Redis, pg: PgPool, host: string, keys: FleetKeys = fleetKeys()): Promise<void> {
  await orUnavailable('Redis', () => redis.set(`${keys.stream}:probe:${host}`, String(Date.now()), 'EX', 60));
  await orUnavailable('PostgreSQL', () =>
    pg.query('INSERT INTO readiness_probe (host, checked_at) VALUES ($1, now()) ON CONFLICT (host) DO UPDATE SET checked_at = excluded.checked_at', [host]),
  );
}
