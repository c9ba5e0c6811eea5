/**
 * The key table in PostgreSQL: the fleet's KeyStore. The same operations and answers as the SQLite
 * store (keys/store.ts), asynchronous. `check` reads through a KeyCache (key-cache.ts); revoke and
 * rotate announce the change after their commit, so every host's cache drops the key
 * (key-changes.ts).
 *
 * @example
 *   const keys = createPostgresKeyStore(pg, { cache, announce: (id) => publishKeyChange(redis, id) });
 *   const minted = await keys.mint({ tenant: 'acme', tier: 'standard' });
 *   await keys.check(minted.key);   // { ok: true, key: {...} }
 */
import { CatalogError } from '../../../snapshots/errors.js';
import { generateKey, isKeyFormat, isKeyId, keyIdOf } from '../../keys/format.js';
import { hashesEqual, hashKey } from '../../keys/hash.js';
import { keyStatus, type KeyRecord, type MintedKey } from '../../keys/record.js';
import { type KeyCheck, type KeyStore, type MintRequest, noSuchKey } from '../../keys/store.js';
import type { Tier } from '../../tiers.js';
import { KEY_CACHE_MAX_AGE_MS, type KeyCache } from './key-cache.js';
import { inPgTransaction, pgRows, type Queryable } from './pg-query.js';
import type { PgClient, PgPool } from './postgres.js';

/** KeyStore with every answer a promise: the fleet's stores are across a network. */
export type AsyncKeyStore = { [K in keyof KeyStore]: (...args: Parameters<KeyStore[K]>) => Promise<ReturnType<KeyStore[K]>> };

export interface StoredKey {
  record: KeyRecord;
  hash: Buffer;
}

interface KeyRow {
  key_id: string;
  key_hash: Buffer;
  tenant: string;
  tier: Tier;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  replaced_by: string | null;
}

const COLUMNS = 'key_id, key_hash, tenant, tier, created_at, expires_at, revoked_at, replaced_by';
const MINT_ATTEMPTS = 5;

export interface PostgresKeyStoreOptions {
  clock?: () => number;
  cache?: KeyCache<StoredKey>;
  /** Tells every host that a key changed, after the commit (publishKeyChange). */
  announce?: (keyId: string) => Promise<void>;
}

export function createPostgresKeyStore(pg: PgPool, options: PostgresKeyStoreOptions = {}): AsyncKeyStore {
  const clock = options.clock ?? Date.now;
  // The change is committed when this runs: a failure must say so, or the operator would think
  // the key still works, and should run the command again (revoke is idempotent) to tell the hosts.
  const announce = async (keyId: string) => {
    try {
      await options.announce?.(keyId);
    } catch (err) {
      throw new CatalogError('unavailable', `key ${keyId} is revoked in PostgreSQL, but the hosts could not be told (${(err as Error).message}); their caches drop it within their max age (${KEY_CACHE_MAX_AGE_MS / 1000} s by default), or run the revoke again once Redis answers`, { retryAfter: 1 }, { cause: err });
    }
  };
  const q = pgRows;

  async function byId(db: Queryable, keyId: string, lock = false): Promise<KeyRow | null> {
    if (!isKeyId(keyId)) return null;
    const rows = await q<KeyRow>(db, `SELECT ${COLUMNS} FROM api_keys WHERE key_id = $1${lock ? ' FOR UPDATE' : ''}`, [keyId]);
    return rows[0] ?? null;
  }

  async function requireKey(db: Queryable, keyId: string, lock = false): Promise<KeyRow> {
    const row = await byId(db, keyId, lock);
    if (!row) throw noSuchKey(keyId);
    return row;
  }

  async function mintWith(db: Queryable, request: MintRequest): Promise<MintedKey> {
    const createdAt = new Date(clock()).toISOString();
    const expiresAt = request.expiresAt ?? null;
    for (let attempt = 0; attempt < MINT_ATTEMPTS; attempt++) {
      const key = generateKey();
      const keyId = keyIdOf(key);
      const inserted = await q(db, `INSERT INTO api_keys (key_id, key_hash, tenant, tier, created_at, expires_at)
        VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (key_id) DO NOTHING RETURNING key_id`, [keyId, hashKey(key), request.tenant, request.tier, createdAt, expiresAt]);
      if (inserted.length === 1) return { key, keyId, tenant: request.tenant, tier: request.tier, createdAt, expiresAt };
    }
    throw new CatalogError('internal', 'could not mint a key with an unused key ID');
  }

  const markRevoked = (db: Queryable, keyId: string, replacedBy: string | null) =>
    q(db, 'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2), replaced_by = COALESCE($3, replaced_by) WHERE key_id = $1', [keyId, new Date(clock()).toISOString(), replacedBy]);

  const inTransaction = <T>(work: (client: PgClient) => Promise<T>) => inPgTransaction(pg, work);

  async function lookup(keyId: string): Promise<StoredKey | null> {
    const row = await byId(pg, keyId);
    return row ? { record: toRecord(row), hash: row.key_hash } : null;
  }

  return {
    mint: (request) => mintWith(pg, request),
    list: async (filter = {}) =>
      (filter.tenant === undefined
        ? await q<KeyRow>(pg, `SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, key_id`)
        : await q<KeyRow>(pg, `SELECT ${COLUMNS} FROM api_keys WHERE tenant = $1 ORDER BY created_at, key_id`, [filter.tenant])
      ).map(toRecord),
    get: async (keyId) => {
      const row = await byId(pg, keyId);
      return row ? toRecord(row) : null;
    },
    async revoke(keyId) {
      await requireKey(pg, keyId);
      await markRevoked(pg, keyId, null);
      await announce(keyId);
      return toRecord(await requireKey(pg, keyId));
    },
    async rotate(keyId, opts = {}) {
      const result = await inTransaction(async (client) => {
        // FOR UPDATE: two rotations of one key at once must not both mint a successor.
        const old = await requireKey(client, keyId, true);
        if (old.revoked_at !== null) {
          throw new CatalogError('invalid_parameter', `key ${keyId} is already revoked; mint a new key instead`, { parameter: 'keyId' });
        }
        const minted = await mintWith(client, { tenant: old.tenant, tier: old.tier, expiresAt: opts.expiresAt ?? null });
        await markRevoked(client, keyId, minted.keyId);
        return { minted, revoked: toRecord(await requireKey(client, keyId)) };
      });
      await announce(keyId);
      return result;
    },
    async check(presented) {
      if (!isKeyFormat(presented)) return { ok: false, reason: 'malformed' } satisfies KeyCheck;
      const keyId = keyIdOf(presented);
      const stored = options.cache ? await options.cache.get(keyId, () => lookup(keyId)) : await lookup(keyId);
      // The hash is compared even though the ID matched: the ID is public, the rest is the secret.
      if (!stored || !hashesEqual(hashKey(presented), stored.hash)) return { ok: false, reason: 'unknown' };
      const status = keyStatus(stored.record, clock());
      return status === 'active' ? { ok: true, key: stored.record } : { ok: false, reason: status, key: stored.record };
    },
  };
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

function toRecord(row: KeyRow): KeyRecord {
  return {
    keyId: row.key_id,
    tenant: row.tenant,
    tier: row.tier,
    createdAt: row.created_at.toISOString(),
    expiresAt: iso(row.expires_at),
    revokedAt: iso(row.revoked_at),
    replacedBy: row.replaced_by,
  };
}
