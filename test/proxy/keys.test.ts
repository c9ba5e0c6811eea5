/** Keys (API.md §4): format, hash-only storage, the check the gate runs, revoke and rotate; the state file's schema. */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKey, isKeyFormat, keyIdOf, KEY_PATTERN } from '../../proxy/keys/format.js';
import { createKeyStore } from '../../proxy/keys/store.js';
import { openStateDb } from '../../proxy/state/open.js';
import { SCHEMA_VERSION } from '../../proxy/state/migrations.js';
import { CatalogError } from '../../snapshots/errors.js';
import { authHarness, T0, tempDir, testClock, type AuthHarness } from '../helpers/auth-fixtures.js';

let h: AuthHarness;
afterEach(() => h?.close());

describe('key format', () => {
  it('when keys are generated then each is rxk_ + 32 base62 characters and the key ID is the first 8 of the suffix', () => {
    const keys = Array.from({ length: 500 }, () => generateKey());
    for (const key of keys) {
      expect(key).toMatch(KEY_PATTERN);
      expect(keyIdOf(key)).toBe(key.slice(4, 12));
    }
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('when the random source gives bytes of 248 or more then they are skipped, so no character is favoured', () => {
    // 248..255 would map to 0..7 a fifth time; they must be dropped, not folded.
    const bytes = Buffer.from([255, 248, 0, 61, 62, 247, ...Array(60).fill(1)]);
    let offset = 0;
    const key = generateKey((size) => {
      const chunk = bytes.subarray(offset, offset + size);
      offset += size;
      return chunk;
    });
    // 255 and 248 dropped; 0 → '0', 61 → 'z', 62 → '0', 247 → 'z', then 1 → '1'.
    expect(key).toBe(`rxk_0z0z${'1'.repeat(28)}`);
  });

  it('when a value is not shaped like a key then isKeyFormat says so', () => {
    for (const bad of ['', 'rxk_', `rxk_${'a'.repeat(31)}`, `rxk_${'a'.repeat(33)}`, `RXK_${'a'.repeat(32)}`, `rxk_${'a'.repeat(31)}-`]) {
      expect(isKeyFormat(bad)).toBe(false);
    }
  });
});

describe('key store', () => {
  it('when a key is minted then only its SHA-256 is stored: the key string is nowhere in the database files', () => {
    h = authHarness();
    const minted = h.keys.mint({ tenant: 'acme', tier: 'standard' });
    const row = h.state.sqlite.prepare('SELECT * FROM api_keys').get() as Record<string, unknown>;
    expect(row.key_hash).toEqual(createHash('sha256').update(minted.key).digest());
    expect(Object.values(row)).not.toContain(minted.key);
    const dir = join(h.stateFile, '..');
    for (const file of readdirSync(dir)) {
      const bytes = readFileSync(join(dir, file));
      expect(bytes.includes(Buffer.from(minted.key)), file).toBe(false);
      expect(bytes.includes(Buffer.from(minted.key.slice(12))), file).toBe(false);
    }
  });

  it('when a key is checked then the outcome is a value: ok, malformed, unknown, revoked or expired', () => {
    h = authHarness();
    const ok = h.keys.mint({ tenant: 'acme', tier: 'free' });
    const expiring = h.keys.mint({ tenant: 'acme', tier: 'free', expiresAt: new Date(T0 + 60_000).toISOString() });
    expect(h.keys.check(ok.key)).toMatchObject({ ok: true, key: { keyId: ok.keyId, tenant: 'acme', tier: 'free' } });
    expect(h.keys.check('rxk_nope')).toEqual({ ok: false, reason: 'malformed' });
    expect(h.keys.check(ok.key.slice(0, -1) + (ok.key.endsWith('a') ? 'b' : 'a'))).toEqual({ ok: false, reason: 'unknown' });
    expect(h.keys.check(expiring.key).ok).toBe(true);
    h.clock.now = T0 + 60_000;
    expect(h.keys.check(expiring.key)).toMatchObject({ ok: false, reason: 'expired', key: { keyId: expiring.keyId } });
    h.keys.revoke(ok.keyId);
    expect(h.keys.check(ok.key)).toMatchObject({ ok: false, reason: 'revoked', key: { keyId: ok.keyId } });
  });

  it('when a key is revoked twice then the first revocation time is kept', () => {
    h = authHarness();
    const minted = h.keys.mint({ tenant: 'acme', tier: 'free' });
    const first = h.keys.revoke(minted.keyId);
    h.clock.now += 5000;
    expect(h.keys.revoke(minted.keyId).revokedAt).toBe(first.revokedAt);
    expect(first.revokedAt).toBe(new Date(T0).toISOString());
  });

  it('when a key is rotated then the new key has the same tenant and tier and the old one is revoked and points to it', () => {
    h = authHarness();
    const old = h.keys.mint({ tenant: 'acme', tier: 'enterprise' });
    const { minted, revoked } = h.keys.rotate(old.keyId);
    expect(minted).toMatchObject({ tenant: 'acme', tier: 'enterprise', expiresAt: null });
    expect(minted.keyId).not.toBe(old.keyId);
    expect(revoked).toMatchObject({ keyId: old.keyId, revokedAt: new Date(T0).toISOString(), replacedBy: minted.keyId });
    expect(h.keys.check(old.key)).toMatchObject({ ok: false, reason: 'revoked' });
    expect(h.keys.check(minted.key).ok).toBe(true);
  });

  it('when an unknown or already revoked key is rotated then it fails and nothing is minted', () => {
    h = authHarness();
    expect(() => h.keys.rotate('ZZZZZZZZ')).toThrow(expect.objectContaining({ code: 'not_found' }));
    const old = h.keys.mint({ tenant: 'acme', tier: 'free' });
    h.keys.revoke(old.keyId);
    expect(() => h.keys.rotate(old.keyId)).toThrow(expect.objectContaining({ code: 'invalid_parameter' }));
    expect(h.keys.list()).toHaveLength(1);
  });

  it('when keys are listed then records carry no key and no hash, and the tenant filter applies', () => {
    h = authHarness();
    h.keys.mint({ tenant: 'acme', tier: 'free' });
    h.keys.mint({ tenant: 'globex', tier: 'free' });
    const all = h.keys.list();
    expect(all).toHaveLength(2);
    for (const record of all) expect(Object.keys(record).sort()).toEqual(['createdAt', 'expiresAt', 'keyId', 'replacedBy', 'revokedAt', 'tenant', 'tier']);
    expect(h.keys.list({ tenant: 'globex' }).map((r) => r.tenant)).toEqual(['globex']);
  });
});

describe('state file', () => {
  it('when opened then it is in WAL mode at the current schema version, and reopening keeps the data', () => {
    const tmp = tempDir();
    try {
      const file = join(tmp.dir, 'nested', 'state.sqlite');
      const state = openStateDb(file);
      expect(state.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(state.sqlite.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const minted = createKeyStore(state).mint({ tenant: 'acme', tier: 'free' });
      state.close();
      const again = openStateDb(file);
      expect(createKeyStore(again, { clock: testClock() }).check(minted.key).ok).toBe(true);
      again.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('when the file was made by a newer version then opening fails with a config error naming the file', () => {
    const tmp = tempDir();
    try {
      const file = join(tmp.dir, 'state.sqlite');
      const state = openStateDb(file);
      state.sqlite.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
      state.close();
      expect(() => openStateDb(file)).toThrow(CatalogError);
      expect(() => openStateDb(file)).toThrow(/newer than this program/);
    } finally {
      tmp.cleanup();
    }
  });
});
