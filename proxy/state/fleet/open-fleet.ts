/**
 * Opens the fleet state of one process (a host, a cluster worker, a CLI command): its PostgreSQL
 * pool (schema migrated first, safe from many hosts at once), its Redis clients, the key store read
 * through this process's key cache, and, for a serving process, the subscription to key changes
 * and the audit drainer. Each process opens its own: nothing here is shared through a file.
 *
 * Redis clients, one per job, since each one's commands queue behind the others':
 *   commands    the limiter script, probes, publishes, the flush's reads
 *   subscriber  the key-change channel (a subscribed connection runs nothing else)
 *   drainer     the drainer's blocking XREADGROUP
 *
 * @example
 *   const fleet = await openFleetState({ postgres, redis, prefix: 'catalog:', host: 'web-1', serving: true });
 *   await fleet.keys.mint({ tenant: 'acme', tier: 'free' });
 *   await fleet.close();
 */
import { hostname } from 'node:os';
import { flushAudit } from './audit-flush.js';
import { createAuditDrainer, type AuditDrainer } from './drainer.js';
import { createKeyCache, type KeyCache } from './key-cache.js';
import { listenKeyChanges, publishKeyChange, type KeyChangeListener } from './key-changes.js';
import { createPostgresKeyStore, type AsyncKeyStore, type StoredKey } from './key-store.js';
import { fleetKeys, type FleetKeys } from './keys.js';
import { migratePostgres } from './migrate.js';
import { openPostgres, type PgPool } from './postgres.js';
import { probeFleetState } from './probe.js';
import { openRedis, type Redis } from './redis.js';

export interface OpenFleetOptions {
  postgres: string;
  /** Absent (''): a CLI command that only reads or mints; it can then neither flush nor announce. */
  redis: string;
  prefix: string;
  /** This process's name among the drainers and in the readiness probe (default: hostname:pid). */
  host?: string;
  /** A serving process: subscribe to key changes, run a drainer loop. A CLI command does neither. */
  serving: boolean;
  /** Wall clock of the key store (creation times, expiry); Date.now by default, a test's clock in tests. */
  clock?: () => number;
  /** PostgreSQL connections this process may hold. */
  pgMax?: number;
  /** Told about connection errors and failed drainer batches (the clients recover by themselves). */
  onError?: (err: unknown) => void;
}

export interface FleetState {
  readonly keyNames: FleetKeys;
  readonly pg: PgPool;
  /** The commands client; null for a CLI command opened without Redis. */
  readonly redis: Redis | null;
  readonly keys: AsyncKeyStore;
  readonly cache: KeyCache<StoredKey>;
  readonly host: string;
  /** Resolves once every audit entry appended before the call is in PostgreSQL, or after timeoutMs (false). */
  flush(timeoutMs?: number): Promise<boolean>;
  /** Both servers take a write (readiness); rejects `unavailable` naming the one that does not. */
  probe(): Promise<void>;
  close(): Promise<void>;
}

export async function openFleetState(options: OpenFleetOptions): Promise<FleetState> {
  const host = options.host ?? `${hostname()}:${process.pid}`;
  const keyNames = fleetKeys(options.prefix);
  const onError = (err: unknown) => options.onError?.(err);
  const pg = openPostgres(options.postgres, { max: options.pgMax, onError });
  const opened: { redis: Redis[]; listener: KeyChangeListener | null; drainer: AuditDrainer | null; drainerRedis: Redis | null } = { redis: [], listener: null, drainer: null, drainerRedis: null };
  const closeAll = async () => {
    // Closing the drainer's client cuts its blocking read short (up to a second otherwise); a batch
    // committed but not yet acknowledged stays pending and is moved again, without duplicates.
    const drained = opened.drainer?.stop();
    opened.drainerRedis?.disconnect();
    await drained;
    await opened.listener?.close();
    for (const r of opened.redis) r.disconnect();
    await pg.end();
  };
  try {
    await migratePostgres(pg);
    const client = async () => {
      const r = await openRedis(options.redis, { onError });
      opened.redis.push(r);
      return r;
    };
    const redis = options.redis === '' ? null : await client();
    const cache = createKeyCache<StoredKey>();
    if (options.serving && redis !== null) {
      opened.listener = await listenKeyChanges(await client(), { onChange: (id) => cache.invalidate(id), onResync: () => cache.clear(), keys: keyNames });
      opened.drainerRedis = await client();
      opened.drainer = createAuditDrainer({ redis: opened.drainerRedis, pg, consumer: host, keys: keyNames, onError });
      opened.drainer.start();
    }
    const keys = createPostgresKeyStore(pg, {
      clock: options.clock,
      cache,
      announce: async (keyId) => {
        // This process's own cache first: its next request must not wait for the broadcast.
        cache.invalidate(keyId);
        if (redis !== null) await publishKeyChange(redis, keyId, keyNames);
      },
    });
    // A CLI flush has no drainer loop to wait for: it drives one of its own.
    const cliDrainer = !options.serving && redis !== null ? createAuditDrainer({ redis, pg, consumer: host, keys: keyNames }) : null;
    return {
      keyNames, pg, redis, keys, cache, host,
      flush: async (timeoutMs) => (redis === null ? false : flushAudit(redis, { keys: keyNames, timeoutMs, drainer: cliDrainer ?? undefined })),
      probe: async () => {
        if (redis === null) throw new Error('no Redis client');
        await probeFleetState(redis, pg, host, keyNames);
      },
      close: closeAll,
    };
  } catch (err) {
    await closeAll().catch(() => undefined);
    throw err;
  }
}
