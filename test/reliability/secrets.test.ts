/**
 * Secrets (issue 6): a key exists in plaintext only in its mint response. Every other response
 * (successes, every error status, server faults), every log line, every audit row and every byte of
 * the state files is scanned for it. Keys are unguessable: 20,000 minted keys are all distinct and
 * their characters are uniform over base62, overall and at every position.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKey, KEY_ID_LENGTH, KEY_PREFIX, KEY_SUFFIX_LENGTH, keyIdOf } from '../../proxy/keys/format.js';
import type { StateDb } from '../../proxy/state/open.js';
import { cardKey } from '../../snapshots/keys.js';
import { auditRows, bearer, internal } from '../helpers/auth-fixtures.js';
import { fixtureWorld, type FixtureWorld } from '../helpers/fixture-app.js';
import { FIXTURE_CARD_IDS } from '../helpers/snapshot-fixture.js';

let w: FixtureWorld;
afterEach(() => w?.close());

async function text(res: Response): Promise<string> {
  const headers = [...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n');
  return `${res.status}\n${headers}\n\n${Buffer.from(await res.arrayBuffer()).toString('latin1')}`;
}

describe('a key in plaintext exists only in its mint response', () => {
  it('when a minted key is used for every kind of answer, including server faults, then no other response, log line, audit row or state file byte holds it', async () => {
    w = await fixtureWorld();
    const app = w.app({ env: { CATALOG_INTERNAL_KEY: 'internal-key-for-tests-0123456789', CATALOG_TIER_LIMITS: 'free=12' } });
    const mint = await app.request('/v1/admin/b2b-keys', { method: 'POST', headers: { ...internal(), 'Content-Type': 'application/json' }, body: JSON.stringify({ tenant: 'initech', tier: 'free' }) });
    expect(mint.status).toBe(201);
    const { key, keyId } = await mint.json() as { key: string; keyId: string };
    const secret = key.slice(KEY_PREFIX.length + KEY_ID_LENGTH); // the key ID is public; the rest is the secret

    // A damaged object, so one answer is a logged server fault with this key presented.
    const damaged = join(w.fixture.dir, cardKey(FIXTURE_CARD_IDS[2], '30d'));
    writeFileSync(damaged, readFileSync(damaged).subarray(0, 20));

    const seen: string[] = [];
    const call = async (path: string, init: RequestInit = {}, on = app) => {
      const res = await on.request(path, { ...init, headers: { ...bearer(key), ...(init.headers as Record<string, string> | undefined) } });
      seen.push(await text(res));
      return res.status;
    };
    const statuses = [
      await call('/v1/catalog/summary'),
      await call(`/v1/cards/${FIXTURE_CARD_IDS[0]}`, { headers: { 'Accept-Encoding': 'gzip' } }),
      await call('/v1/cards/no-such-card'),
      await call('/v1/cards/a?range=forever'),
      await call('/v1/me'),
      await call('/v1/cards/x', { method: 'DELETE' }),
      await call(`/v1/admin/b2b-keys/${keyId}/audit`),
      await call(`/v1/admin/b2b-keys/${w.globex.keyId}/audit`),
      await call(`/v1/cards/${FIXTURE_CARD_IDS[2]}`),
      await call(`/v1/search?q=${encodeURIComponent(key)}`),
      await call(`/v1/cards/${encodeURIComponent(key)}`),
    ];
    // A state fault with this key presented: an app on a read-only connection.
    const sqlite = new Database(w.stateFile, { readonly: true });
    const readOnly: StateDb = { file: w.stateFile, sqlite, close: () => sqlite.close() };
    statuses.push(await call('/v1/catalog/summary', {}, w.app({ db: readOnly })));
    readOnly.close();
    while (statuses.length < 14) statuses.push(await call('/v1/catalog/summary'));
    // Admin answers about the key (list, revoke) and the refused key afterwards.
    for (const [path, method] of [['/v1/admin/b2b-keys', 'GET'], [`/v1/admin/b2b-keys/${keyId}`, 'DELETE']] as const) {
      const res = await app.request(path, { method, headers: internal() });
      seen.push(await text(res));
    }
    statuses.push(await call('/v1/catalog/summary'));
    expect(new Set(statuses)).toEqual(new Set([200, 404, 400, 403, 405, 500, 503, 429, 401]));

    const state = [...readdirSync(dirname(w.stateFile))].filter((f) => f.startsWith('state.sqlite')).map((f) => readFileSync(join(dirname(w.stateFile), f)).toString('latin1'));
    const places: [string, string][] = [
      ['responses', seen.join('\n')],
      ['log lines', JSON.stringify(w.logs)],
      ['audit rows', JSON.stringify(auditRows(w.state))],
      ...state.map((bytes, i) => [`state file ${i}`, bytes] as [string, string]),
    ];
    expect(w.logs.length).toBeGreaterThanOrEqual(2); // the fault lines were written, so they were scanned
    expect(auditRows(w.state).length).toBeGreaterThan(10);
    for (const [where, content] of places) {
      expect(content.includes(secret), `${where} hold the key's secret`).toBe(false);
      expect(content.includes(key), `${where} hold the key`).toBe(false);
    }
  });

  it('when a presented key has a real key ID but a wrong secret then it is refused exactly like a key that does not exist', async () => {
    w = await fixtureWorld();
    const app = w.app();
    const forged = `${KEY_PREFIX}${w.acme.keyId}${'A'.repeat(KEY_SUFFIX_LENGTH - KEY_ID_LENGTH)}`;
    const unknown = `${KEY_PREFIX}${'B'.repeat(KEY_SUFFIX_LENGTH)}`;
    const shape = async (k: string) => {
      const res = await app.request('/v1/catalog/summary', { headers: bearer(k) });
      const body = await res.json() as Record<string, unknown>;
      return { status: res.status, challenge: res.headers.get('WWW-Authenticate'), error: body.error, message: body.message };
    };
    expect(await shape(forged)).toEqual(await shape(unknown));
    expect(auditRows(w.state)).toEqual([]);
  });
});

describe('the key generator', () => {
  const N = 20_000;
  const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  /** χ² with 61 degrees of freedom exceeds 125 with probability about 1e-6 for a uniform source. */
  const CHI2_61_LIMIT = 125;
  const chi2 = (counts: number[], total: number) => counts.reduce((sum, c) => sum + (c - total / 62) ** 2 / (total / 62), 0);

  it(`when ${N} keys are generated then all keys and all key IDs are distinct and every character is uniform over base62, overall and per position`, () => {
    const keys = Array.from({ length: N }, () => generateKey());
    expect(new Set(keys).size).toBe(N);
    expect(new Set(keys.map(keyIdOf)).size).toBe(N);
    const overall = new Array(62).fill(0);
    const perPosition = Array.from({ length: KEY_SUFFIX_LENGTH }, () => new Array(62).fill(0));
    for (const k of keys) {
      for (let i = 0; i < KEY_SUFFIX_LENGTH; i++) {
        const c = ALPHABET.indexOf(k[KEY_PREFIX.length + i]);
        overall[c]++;
        perPosition[i][c]++;
      }
    }
    const overallChi2 = chi2(overall, N * KEY_SUFFIX_LENGTH);
    const worstPosition = Math.max(...perPosition.map((counts) => chi2(counts, N)));
    expect(overallChi2).toBeLessThan(CHI2_61_LIMIT);
    expect(worstPosition).toBeLessThan(CHI2_61_LIMIT + 20); // the max of 32 tests: a little more room
    // 32 characters of base62 carry 190 bits; the secret part (24 characters) alone 142.
    expect(Math.floor(KEY_SUFFIX_LENGTH * Math.log2(62))).toBe(190);
    console.info(`key generator: ${N} keys distinct; chi2(61 dof) overall ${overallChi2.toFixed(1)}, worst position ${worstPosition.toFixed(1)}`);
  });
});
