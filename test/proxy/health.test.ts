/**
 * GET /healthz and GET /readyz through the real app: no credential, outside /v1, no data in the
 * body, no audit row, no request log line; /readyz 503 until a snapshot is published and whenever
 * the state file does not take writes.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../proxy/app.js';
import { loadConfig } from '../../proxy/config.js';
import { openStateDb, type StateDb } from '../../proxy/state/open.js';
import { createFsSnapshotSource } from '../../snapshots/store/fs.js';
import { auditRows, authHarness, bearer, capturingLogger, tempDir, type AuthHarness, type LogLine } from '../helpers/auth-fixtures.js';
import { writeFixtureSnapshot } from '../helpers/snapshot-fixture.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

async function published(): Promise<{ h: AuthHarness; root: string }> {
  const tmp = tempDir('catalog-health-');
  const root = join(tmp.dir, 'snapshots');
  await writeFixtureSnapshot(root);
  const h = authHarness({ snapshots: createFsSnapshotSource(root) });
  cleanups.push(() => h.close(), () => tmp.cleanup());
  return { h, root };
}

describe('GET /healthz', () => {
  it('answers 200 without any credential, with a status word only, and leaves no audit row or log line', async () => {
    const { h } = await published();
    const res = await h.app.request('/healthz');
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(res.headers.get('X-Request-Id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.json()).toEqual({ status: 'ok' });
    expect(h.logs).toEqual([]);
    expect(auditRows(h.state)).toEqual([]);
  });

  it('when a bearer key is sent anyway then it is neither checked nor audited (a bad one does not turn it into 401)', async () => {
    const { h } = await published();
    const { key } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    expect((await h.app.request('/healthz', { headers: bearer(key) })).status).toBe(200);
    expect((await h.app.request('/healthz', { headers: bearer('rxk_not-a-real-key') })).status).toBe(200);
    expect(auditRows(h.state)).toEqual([]);
  });

  it('answers HEAD too; other methods are 405 with Allow, as on every other path', async () => {
    const { h } = await published();
    expect((await h.app.request('/healthz', { method: 'HEAD' })).status).toBe(200);
    for (const path of ['/healthz', '/readyz']) {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
        const res = await h.app.request(path, { method });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get('Allow')).toBe('GET, HEAD');
        expect(await res.json()).toMatchObject({ error: 'method_not_allowed' });
      }
    }
  });
});

describe('GET /readyz', () => {
  it('when a snapshot is published and the state file takes writes then 200 ready, with no snapshot id in it', async () => {
    const { h } = await published();
    const res = await h.app.request('/readyz');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ status: 'ready' });
    expect(res.headers.get('X-Snapshot-Id')).toBeNull();
    // the readiness write really happened, in the state file
    expect(h.state.sqlite.prepare('SELECT checked_ms FROM readiness_probe').get()).toEqual({ checked_ms: h.clock.now });
    expect(h.logs).toEqual([]);
  });

  it('when no snapshot has been published then 503 not_ready, and the reason goes to the log once', async () => {
    const h = authHarness();
    cleanups.push(() => h.close());
    for (let i = 0; i < 3; i++) {
      const res = await h.app.request('/readyz');
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: 'not_ready' });
    }
    expect((await h.app.request('/healthz')).status).toBe(200);
    expect(h.logs).toEqual([{ level: 'error', message: 'not ready', fields: { reason: 'no_snapshot' } }]);
  });

  it('when the state file is read-only then 503 not_ready while /healthz stays 200, and the log says why', async () => {
    const tmp = tempDir('catalog-health-ro-');
    cleanups.push(() => tmp.cleanup());
    const root = join(tmp.dir, 'snapshots');
    await writeFixtureSnapshot(root);
    const file = join(tmp.dir, 'state.sqlite');
    openStateDb(file).close(); // created and migrated, then reopened read-only below
    const sqlite = new Database(file, { readonly: true });
    const db: StateDb = { file, sqlite, close: () => sqlite.close() };
    cleanups.push(() => db.close());
    const logs: LogLine[] = [];
    const app = createApp({ db, config: loadConfig({}), snapshots: createFsSnapshotSource(root), logger: capturingLogger(logs) });

    const res = await app.request('/readyz');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'not_ready' });
    expect((await app.request('/healthz')).status).toBe(200);
    expect(logs).toEqual([{ level: 'error', message: 'not ready', fields: { reason: 'state_not_writable', detail: expect.stringMatching(/readonly/i) } }]);
  });

  it('when the state file becomes writable again after a failure then 200 and one "ready again" line', async () => {
    const { h, root } = await published();
    const lock = new Database(h.stateFile);
    cleanups.push(() => lock.close());
    // Another process holding the write lock past busy_timeout is "not writable" too; here the
    // probe's own connection is made to give up at once instead of after 5 s.
    h.state.sqlite.pragma('busy_timeout = 0');
    lock.exec('BEGIN IMMEDIATE');
    const app = createApp({ db: h.state, config: h.config, snapshots: createFsSnapshotSource(root), logger: capturingLogger(h.logs) });
    expect((await app.request('/readyz')).status).toBe(503);
    lock.exec('ROLLBACK');
    expect((await app.request('/readyz')).status).toBe(200);
    expect(h.logs.map((l) => [l.message, l.fields.reason])).toEqual([['not ready', 'state_not_writable'], ['ready again', undefined]]);
  });
});
