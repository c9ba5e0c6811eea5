/**
 * The fleet state (issue 18): keys and audit rows in PostgreSQL (the store of record), rate
 * counters and the audit hot path in Redis. What the proxy wires in place of the SQLite state when
 * it is given `--state postgres://…` and `--redis redis://…` (docs/operations.md).
 */
export { openPostgres, type PgPool } from './postgres.js';
export { openRedis, type Redis } from './redis.js';
export { migratePostgres } from './migrate.js';
export { fleetKeys, type FleetKeys } from './keys.js';
export { createRedisLimiter, type FleetLimiter, type RateCount, type Refusal, type RefusalOf } from './limiter.js';
export { createAuditDrainer, type AuditDrainer } from './drainer.js';
export { createPostgresKeyStore, type AsyncKeyStore, type StoredKey } from './key-store.js';
export { createKeyCache, type KeyCache } from './key-cache.js';
export { listenKeyChanges, publishKeyChange } from './key-changes.js';
export { createPostgresAuditReader, createPostgresAuditPruner, type AsyncAuditReader, type AsyncAuditPruner } from './audit-store.js';
export { probeFleetState } from './probe.js';
export { fleetUnavailable } from './unavailable.js';
