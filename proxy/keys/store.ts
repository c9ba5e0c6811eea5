/**
 * The key table: mint, list, revoke, rotate, and the check the gate runs on every bearer request.
 * The check reads the row from SQLite each time (a primary-key lookup, microseconds), so a revoke
 * made by the CLI or another worker takes effect on the very next request in every process.
 *
 * @example
 *   const keys = createKeyStore(state);
 *   const minted = keys.mint({ tenant: 'acme', tier: 'standard' });   // minted.key is shown once
 *   keys.check(minted.key)                                             // { ok: true, key: {...} }
 *   keys.revoke(minted.keyId);
 *   keys.check(minted.key)                                             // { ok: false, reason: 'revoked', key: {...} }
 */
import { CatalogError } from '../../snapshots/errors.js';
import type { StateDb } from '../state/open.js';
import type { Tier } from '../tiers.js';
import { generateKey, isKeyFormat, isKeyId, KEY_ID_LENGTH, KEY_PREFIX, keyIdOf, shownKeyId } from './format.js';
import { hashesEqual, hashKey } from './hash.js';
import { keyStatus, type KeyRecord, type MintedKey } from './record.js';

export interface MintRequest {
  tenant: string;
  tier: Tier;
  /** ISO timestamp, already validated (see validate.ts). */
  expiresAt?: string | null;
}

export type KeyCheck =
  | { ok: true; key: KeyRecord }
  /** `key` is set when the presented key matched a stored one (revoked or expired), for the audit row. */
  | { ok: false; reason: 'malformed' | 'unknown' | 'revoked' | 'expired'; key?: KeyRecord };

export interface KeyStore {
  mint(request: MintRequest): MintedKey;
  list(filter?: { tenant?: string }): KeyRecord[];
  get(keyId: string): KeyRecord | null;
  /** Sets revokedAt (idempotent: an already revoked key keeps its first revocation time). */
  revoke(keyId: string): KeyRecord;
  /** Mints a key for the same tenant and tier and revokes the old one, in one transaction. */
  rotate(keyId: string, options?: { expiresAt?: string | null }): { minted: MintedKey; revoked: KeyRecord };
  check(presented: string): KeyCheck;
}

interface KeyRow {
  key_id: string;
  key_hash: Buffer;
  tenant: string;
  tier: Tier;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  replaced_by: string | null;
}

const COLUMNS = 'key_id, key_hash, tenant, tier, created_at, expires_at, revoked_at, replaced_by';
// A key ID is 8 base62 characters (2e14 values); a collision is astronomically rare, but a retry is cheap.
const MINT_ATTEMPTS = 5;

export function createKeyStore(state: StateDb, options: { clock?: () => number } = {}): KeyStore {
  const clock = options.clock ?? Date.now;
  const db = state.sqlite;
  const insert = db.prepare(`INSERT INTO api_keys (key_id, key_hash, tenant, tier, created_at, expires_at)
    VALUES (@keyId, @hash, @tenant, @tier, @createdAt, @expiresAt) ON CONFLICT (key_id) DO NOTHING`);
  const byId = db.prepare<[string], KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE key_id = ?`);
  const all = db.prepare<[], KeyRow>(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, key_id`);
  const byTenant = db.prepare<[string], KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE tenant = ? ORDER BY created_at, key_id`);
  const markRevoked = db.prepare(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, @now), replaced_by = COALESCE(@replacedBy, replaced_by) WHERE key_id = @keyId`);

  const nowIso = () => new Date(clock()).toISOString();

  function mint(request: MintRequest): MintedKey {
    const createdAt = nowIso();
    const expiresAt = request.expiresAt ?? null;
    for (let attempt = 0; attempt < MINT_ATTEMPTS; attempt++) {
      const key = generateKey();
      const keyId = keyIdOf(key);
      const result = insert.run({ keyId, hash: hashKey(key), tenant: request.tenant, tier: request.tier, createdAt, expiresAt });
      if (result.changes === 1) return { key, keyId, tenant: request.tenant, tier: request.tier, createdAt, expiresAt };
    }
    throw new CatalogError('internal', 'could not mint a key with an unused key ID');
  }

  function requireKey(keyId: string): KeyRow {
    const row = isKeyId(keyId) ? byId.get(keyId) : undefined;
    if (!row) throw noSuchKey(keyId);
    return row;
  }

  const rotateTx = db.transaction((keyId: string, expiresAt: string | null) => {
    const old = requireKey(keyId);
    if (old.revoked_at !== null) {
      throw new CatalogError('invalid_parameter', `key ${keyId} is already revoked; mint a new key instead`, { parameter: 'keyId' });
    }
    const minted = mint({ tenant: old.tenant, tier: old.tier, expiresAt });
    markRevoked.run({ keyId, now: minted.createdAt, replacedBy: minted.keyId });
    return { minted, revoked: toRecord(requireKey(keyId)) };
  });

  return {
    mint,
    list: (filter = {}) => (filter.tenant === undefined ? all.all() : byTenant.all(filter.tenant)).map(toRecord),
    get: (keyId) => {
      const row = byId.get(keyId);
      return row ? toRecord(row) : null;
    },
    revoke: (keyId) => {
      requireKey(keyId);
      markRevoked.run({ keyId, now: nowIso(), replacedBy: null });
      return toRecord(requireKey(keyId));
    },
    rotate: (keyId, opts = {}) => rotateTx.immediate(keyId, opts.expiresAt ?? null),
    check: (presented) => {
      if (!isKeyFormat(presented)) return { ok: false, reason: 'malformed' };
      const row = byId.get(keyIdOf(presented));
      // The hash is compared even though the ID matched: the ID is public, the rest is the secret.
      if (!row || !hashesEqual(hashKey(presented), row.key_hash)) return { ok: false, reason: 'unknown' };
      const key = toRecord(row);
      const status = keyStatus(key, clock());
      return status === 'active' ? { ok: true, key } : { ok: false, reason: status, key };
    },
  };
}

/**
 * The 404 for a key-ID argument (HTTP path or CLI) that names no key. It echoes at most a key ID
 * (shownKeyId): someone who pastes a whole key where its ID belongs must not see it printed back.
 */
export function noSuchKey(keyIdArgument: string, where = ''): CatalogError {
  const hint = isKeyId(keyIdArgument) ? '' : `; a key ID is the ${KEY_ID_LENGTH} characters after ${KEY_PREFIX}, never the whole key`;
  return new CatalogError('not_found', `no key with ID ${JSON.stringify(shownKeyId(keyIdArgument))}${where}${hint}`, { parameter: 'keyId' });
}

function toRecord(row: KeyRow): KeyRecord {
  return {
    keyId: row.key_id,
    tenant: row.tenant,
    tier: row.tier,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    replacedBy: row.replaced_by,
  };
}
