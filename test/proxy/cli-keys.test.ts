/** `catalog keys ...` and `catalog audit` through the real CLI entry, in-process, with captured output. */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import type { CliIO } from '../../cli/io.js';
import { createApp } from '../../proxy/app.js';
import { loadConfig } from '../../proxy/config.js';
import { KEY_PATTERN } from '../../proxy/keys/format.js';
import { openStateDb } from '../../proxy/state/open.js';
import { bearer, emptySnapshots, tempDir } from '../helpers/auth-fixtures.js';

interface Run { code: number; out: string; err: string }

function fakeIO(): { io: CliIO; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    io: { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) }, env: {} },
    out: () => out,
    err: () => err,
  };
}

async function catalog(...args: string[]): Promise<Run> {
  const { io, out, err } = fakeIO();
  const code = await main(['node', 'catalog', ...args], io);
  return { code, out: out(), err: err() };
}

let tmp: ReturnType<typeof tempDir>;
let state: string;
beforeEach(() => {
  tmp = tempDir('catalog-cli-');
  state = join(tmp.dir, 'sub', 'state.sqlite');
});
afterEach(() => tmp.cleanup());

async function mintJson(tenant = 'acme', ...extra: string[]) {
  const run = await catalog('keys', 'mint', '--state', state, '--tenant', tenant, '--json', ...extra);
  expect(run.code).toBe(0);
  return JSON.parse(run.out) as { key: string; keyId: string; tenant: string; tier: string; createdAt: string; expiresAt: string | null };
}

describe('catalog keys', () => {
  it('when a key is minted with --json then one JSON line carries the key, and the state file is created', async () => {
    const run = await catalog('keys', 'mint', '--state', state, '--tenant', 'acme', '--tier', 'enterprise', '--expires', '2999-01-01', '--json');
    expect(run.code).toBe(0);
    expect(run.out.trim().split('\n')).toHaveLength(1);
    const minted = JSON.parse(run.out);
    expect(Object.keys(minted)).toEqual(['key', 'keyId', 'tenant', 'tier', 'createdAt', 'expiresAt']);
    expect(minted).toMatchObject({ key: expect.stringMatching(KEY_PATTERN), tenant: 'acme', tier: 'enterprise', expiresAt: '2999-01-01T00:00:00.000Z' });
  });

  it('when a key is minted without --json then the key is printed once with its ID and a warning', async () => {
    const run = await catalog('keys', 'mint', '--state', state, '--tenant', 'acme');
    expect(run.code).toBe(0);
    const keys = run.out.match(/rxk_[0-9A-Za-z]{32}/g);
    expect(keys).toHaveLength(1);
    expect(run.out).toContain(`Key ID ${keys![0].slice(4, 12)}`);
    expect(run.out).toContain('only time the key is shown');
  });

  it('when keys are listed then the table and the JSON lines never contain a key', async () => {
    const a = await mintJson('acme');
    const b = await mintJson('globex');
    const table = await catalog('keys', 'list', '--state', state);
    expect(table.code).toBe(0);
    expect(table.out).toMatch(/^KEY ID +TENANT +TIER +STATUS +CREATED +EXPIRES +REVOKED\n/);
    expect(table.out).toContain(a.keyId);
    expect(table.out).toContain(b.keyId);
    expect(table.out).not.toMatch(/rxk_/);
    const lines = (await catalog('keys', 'list', '--state', state, '--json', '--tenant', 'globex')).out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual([{ keyId: b.keyId, tenant: 'globex', tier: 'free', createdAt: b.createdAt, expiresAt: null, revokedAt: null, replacedBy: null, status: 'active' }]);
  });

  it('when a key is revoked then list shows it revoked and the proxy refuses it', async () => {
    const a = await mintJson();
    const run = await catalog('keys', 'revoke', a.keyId, '--state', state);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(new RegExp(`^Revoked key ${a.keyId} \\(tenant acme\\) at \\d{4}-`));
    expect((await catalog('keys', 'list', '--state', state)).out).toContain('revoked');
    const db = openStateDb(state);
    try {
      const app = createApp({ db, config: loadConfig({}), snapshots: emptySnapshots });
      expect((await app.request('/v1/catalog/summary', { headers: bearer(a.key) })).status).toBe(401);
    } finally {
      db.close();
    }
  });

  it('when a key is rotated then a new key of the same tenant and tier is printed and the old one is revoked', async () => {
    const a = await mintJson('acme', '--tier', 'standard');
    const run = await catalog('keys', 'rotate', a.keyId, '--state', state, '--json');
    expect(run.code).toBe(0);
    const rotated = JSON.parse(run.out);
    expect(rotated).toMatchObject({ tenant: 'acme', tier: 'standard', replaces: a.keyId, key: expect.stringMatching(KEY_PATTERN) });
    const list = (await catalog('keys', 'list', '--state', state, '--json')).out.trim().split('\n').map((l) => JSON.parse(l));
    expect(list.find((k) => k.keyId === a.keyId)).toMatchObject({ status: 'revoked', replacedBy: rotated.keyId });
  });

  it('when the key ID is unknown then revoke and rotate exit 66 with one stderr line', async () => {
    for (const command of ['revoke', 'rotate']) {
      const run = await catalog('keys', command, 'ZZZZZZZZ', '--state', state);
      expect(run.code).toBe(66);
      expect(run.err).toBe('catalog: no key with ID "ZZZZZZZZ"\n');
    }
  });

  it.each([
    [['--tenant', 'bad tenant'], '--tenant'],
    [['--tenant', 'acme', '--tier', 'gold'], '--tier'],
    [['--tenant', 'acme', '--expires', '2001-01-01'], '--expires'],
  ])('when mint gets %j then exit 64 naming %s', async (args, option) => {
    const run = await catalog('keys', 'mint', '--state', state, ...args);
    expect(run.code).toBe(64);
    expect(run.err).toContain(option);
    expect(run.out).toBe('');
  });

  it('when --state is missing then commander reports it and the exit code is 64', async () => {
    const run = await catalog('keys', 'list');
    expect(run.code).toBe(64);
    expect(run.err).toContain('--state');
  });
});

describe('catalog audit', () => {
  async function withTraffic() {
    const a = await mintJson();
    const db = openStateDb(state);
    let now = Date.parse('2026-11-20T10:00:00.000Z');
    try {
      const app = createApp({ db, config: loadConfig({}), snapshots: emptySnapshots, clock: () => now });
      for (const path of ['/v1/cards/one', '/v1/me', '/v1/catalog/summary']) {
        await app.request(path, { headers: bearer(a.key) });
        now += 60_000;
      }
    } finally {
      db.close();
    }
    return a;
  }

  it('when rows exist then they are printed newest first as a table with a count line', async () => {
    const a = await withTraffic();
    const run = await catalog('audit', a.keyId, '--state', state);
    expect(run.code).toBe(0);
    const lines = run.out.trim().split('\n');
    expect(lines[0]).toMatch(/^TIMESTAMP +STATUS +ROUTE +PATH +BYTES +MS +SNAPSHOT +REQUEST ID$/);
    expect(lines.slice(1, 4).map((l) => l.split(/ +/)[3])).toEqual(['/v1/catalog/summary', '/v1/me', '/v1/cards/one']);
    expect(lines[4]).toBe('3 of 3 rows, newest first.');
  });

  it('when --json, --since, --until and --limit are given then NDJSON rows of that window are printed', async () => {
    const a = await withTraffic();
    const run = await catalog('audit', a.keyId, '--state', state, '--json', '--since', '2026-11-20T10:01:00Z', '--until', '2026-11-20T10:03:00Z', '--limit', '1');
    expect(run.code).toBe(0);
    const rows = run.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ apiKeyId: a.keyId, path: '/v1/catalog/summary', timestamp: '2026-11-20T10:02:00.000Z' });
  });

  it('when the key is unknown or an option is bad then a clear error and a stable exit code', async () => {
    await mintJson();
    expect((await catalog('audit', 'ZZZZZZZZ', '--state', state)).code).toBe(66);
    const bad = await catalog('audit', 'ZZZZZZZZ', '--state', state, '--since', 'last week');
    expect(bad.code).toBe(64);
    expect(bad.err).toContain('--since');
    expect((await catalog('audit', 'ZZZZZZZZ', '--state', state, '--limit', '0')).code).toBe(64);
  });
});
