/**
 * Issue 21, item 2: a key pasted where its key ID belongs (a URL path, a CLI argument) is never
 * echoed. Every route and command that takes a key ID gets a whole key, and a key cut short by one
 * character; the answer, the log lines and the audit rows hold at most the key ID.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY_ID_LENGTH, KEY_PREFIX } from '../../proxy/keys/format.js';
import { auditRows, authHarness, bearer, internal, tempDir, type AuthHarness } from '../helpers/auth-fixtures.js';
import { runCli } from '../helpers/cli.js';

let h: AuthHarness | undefined;
afterEach(() => h?.close());

/** The pasted forms of a key: whole, and cut short (still far too much of the secret to show). */
const pasted = (key: string) => [key, key.slice(0, -1)];
const secretOf = (key: string) => key.slice(KEY_PREFIX.length + KEY_ID_LENGTH, KEY_PREFIX.length + KEY_ID_LENGTH + 4);

describe('a key pasted into a key-ID path', () => {
  it('when a whole or cut key is sent to every route that takes a key ID then 400 invalid_parameter names id and echoes no part of the key', async () => {
    h = authHarness();
    const { key, keyId } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    const json = { 'Content-Type': 'application/json' };
    for (const id of pasted(key)) {
      const path = `/v1/admin/b2b-keys/${encodeURIComponent(id)}`;
      const calls: [string, RequestInit][] = [
        [`${path}/audit`, { headers: internal() }],
        [`${path}/audit`, { headers: bearer(key) }],
        [path, { method: 'DELETE', headers: internal() }],
        [`${path}/rotate`, { method: 'POST', headers: { ...internal(), ...json }, body: '{}' }],
      ];
      for (const [url, init] of calls) {
        const res = await h.app.request(url, init);
        const text = await res.text();
        // A whole key breaks the key ID's pattern (the OpenAPI document's), so it is a malformed
        // parameter, refused before any lookup; a well-formed unknown ID is 404 (next test).
        expect({ url, status: res.status }).toEqual({ url, status: 400 });
        expect(JSON.parse(text)).toMatchObject({ error: 'invalid_parameter' });
        expect(JSON.parse(text).message).toMatch(/^id /);
        expect(text).not.toContain(secretOf(key));
        expect(text).not.toContain(keyId);
      }
    }
    expect(h.keys.get(keyId)?.revokedAt).toBeNull();
    const rows = JSON.stringify(auditRows(h.state));
    expect(rows).toContain(`/v1/admin/b2b-keys/rxk_${keyId}…/audit`);
    expect(rows + JSON.stringify(h.logs)).not.toContain(secretOf(key));
  });

  it('when the key ID itself is sent then the routes answer as before', async () => {
    h = authHarness();
    const { key, keyId } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    expect((await h.app.request(`/v1/admin/b2b-keys/${keyId}/audit`, { headers: bearer(key) })).status).toBe(200);
    const unknown = await (await h.app.request('/v1/admin/b2b-keys/ZZZZZZZZ', { method: 'DELETE', headers: internal() })).json();
    expect(unknown.message).toBe('no key with ID "ZZZZZZZZ"');
  });
});

describe('a key pasted into a key-ID argument of the CLI', () => {
  it('when keys revoke, keys rotate or audit gets a whole or cut key then exit 66 and stderr names only the key ID', async () => {
    const tmp = tempDir('catalog-key-echo-');
    try {
      const state = join(tmp.dir, 'state.sqlite');
      const mint = await runCli(['keys', 'mint', '--state', state, '--tenant', 'acme', '--json']);
      expect(mint.code).toBe(0);
      const { key, keyId } = JSON.parse(mint.stdout) as { key: string; keyId: string };
      for (const id of pasted(key)) {
        for (const args of [['keys', 'revoke', id], ['keys', 'rotate', id], ['audit', id]]) {
          const run = await runCli([...args, '--state', state]);
          expect({ args: args[0] + ' ' + args[1].slice(0, 6), code: run.code }).toEqual({ args: args[0] + ' ' + args[1].slice(0, 6), code: 66 });
          expect(run.stderr).toContain(`"${keyId}…"`);
          expect(run.stdout + run.stderr).not.toContain(secretOf(key));
        }
      }
      const list = await runCli(['keys', 'list', '--state', state, '--json']);
      expect(JSON.parse(list.stdout)).toMatchObject({ keyId, status: 'active' });
    } finally {
      tmp.cleanup();
    }
  });
});
