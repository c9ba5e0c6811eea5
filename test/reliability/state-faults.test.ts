/**
 * State-file faults (issue 6): locked past the busy timeout, read-only, full, corrupt. Each gives a
 * 503 `state_unavailable` with one error log line, the app keeps serving once the fault is gone, and
 * no bearer request is ever answered without its committed audit row (fail closed).
 */
import { openSync, writeSync, closeSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openStateDb, type StateDb } from '../../proxy/state/open.js';
import { auditRows, bearer } from '../helpers/auth-fixtures.js';
import { fixtureWorld, type FixtureWorld } from '../helpers/fixture-app.js';

/** The error lines only: every answered request also logs one info line (docs/operations.md). */
const errorLines = (w: { logs: { level: string; message: string; fields: Record<string, unknown> }[] }) => w.logs.filter((l) => l.level === 'error');

let w: FixtureWorld;
const extra: { close(): void }[] = [];
afterEach(() => {
  while (extra.length > 0) extra.pop()!.close();
  w?.close();
});

const SUMMARY = '/v1/catalog/summary';

async function expectStateUnavailable(res: Response): Promise<void> {
  expect(res.status).toBe(503);
  expect(res.headers.get('Content-Type')).toBe('application/json');
  expect(res.headers.get('Retry-After')).toBe('1');
  expect(res.headers.get('Cache-Control')).toBe('no-store');
  // Nothing of the dropped answer leaks onto the error (Hono copies old headers on c.res = ...).
  expect(res.headers.get('Content-Encoding')).toBeNull();
  expect(res.headers.get('ETag')).toBeNull();
  const text = await res.text();
  expect(Number(res.headers.get('Content-Length'))).toBe(Buffer.byteLength(text));
  const body = JSON.parse(text);
  expect(body).toEqual({ error: 'state_unavailable', message: expect.any(String), requestId: res.headers.get('X-Request-Id') });
  expect(text).not.toMatch(/sqlite|SQLITE|\/tmp|database/);
}

const requestIdsOfRows = (state: StateDb) => new Set(auditRows(state).map((r) => r.request_id));

describe('state file faults', () => {
  it('when another connection holds the write lock past busy_timeout then 503 state_unavailable, one log line, and service resumes when it is released', async () => {
    w = await fixtureWorld();
    const db = openStateDb(w.stateFile, { busyTimeoutMs: 30 });
    extra.push(db);
    const app = w.app({ db });
    const holder = new Database(w.stateFile);
    extra.push(holder);
    holder.exec('BEGIN IMMEDIATE');
    const locked = await app.request(SUMMARY, { headers: bearer(w.acme.key) });
    await expectStateUnavailable(locked);
    expect(errorLines(w)).toHaveLength(1);
    expect(errorLines(w)[0]).toMatchObject({ level: 'error', message: 'state file unavailable', fields: { code: 'state_unavailable', sqlite: 'SQLITE_BUSY', requestId: locked.headers.get('X-Request-Id') } });
    holder.exec('ROLLBACK');
    const after = await app.request(SUMMARY, { headers: bearer(w.acme.key) });
    expect(after.status).toBe(200);
    expect([...requestIdsOfRows(w.state)]).toEqual([after.headers.get('X-Request-Id')]);
    expect(JSON.stringify(errorLines(w))).not.toContain(w.acme.key);
  });

  it('when the state file is read-only then every bearer request is 503 with one log line each, and nothing is answered unaudited', async () => {
    w = await fixtureWorld();
    const sqlite = new Database(w.stateFile, { readonly: true });
    const db: StateDb = { file: w.stateFile, sqlite, close: () => sqlite.close() };
    extra.push(db);
    const app = w.app({ db });
    const responses = await Promise.all(Array.from({ length: 5 }, () => app.request(SUMMARY, { headers: bearer(w.acme.key) })));
    for (const res of responses) await expectStateUnavailable(res);
    expect(errorLines(w)).toHaveLength(5);
    expect(new Set(errorLines(w).map((l) => l.fields.sqlite))).toEqual(new Set(['SQLITE_READONLY']));
    expect(auditRows(w.state)).toHaveLength(0);
    // Callers that need no state (the internal key) are still served.
    const internalCaller = await app.request(SUMMARY, { headers: { 'X-Service-Internal-Key': 'internal-key-for-tests-0123456789' } });
    expect(internalCaller.status).toBe(200);
  });

  it('when the disk fills under the audit row then the made 200 is dropped for a 503 and its count rolls back with the row: every 200 has its row and its count, no 503 has either', async () => {
    w = await fixtureWorld();
    const db = openStateDb(w.stateFile);
    extra.push(db);
    const app = w.app({ db, env: { CATALOG_TIER_LIMITS: 'free=100000' } });
    // One request creates the counter row; then the file may not grow by a single page. The counter
    // update rewrites its row in place, the audit insert needs room: the audit insert is what fails,
    // and the counter update of the same transaction is rolled back with it.
    expect((await app.request(SUMMARY, { headers: bearer(w.acme.key) })).status).toBe(200);
    const pages = db.sqlite.pragma('page_count', { simple: true }) as number;
    db.sqlite.pragma(`max_page_count = ${pages}`);
    const statuses: number[] = [];
    const ok = new Set<string>();
    const refused = new Set<string>();
    for (let i = 0; i < 400 && refused.size < 5; i++) {
      const res = await app.request(SUMMARY, { headers: { ...bearer(w.acme.key), 'Accept-Encoding': 'gzip' } });
      statuses.push(res.status);
      const id = res.headers.get('X-Request-Id')!;
      if (res.status === 200) {
        expect(res.headers.get('Content-Encoding')).toBe('gzip');
        await res.arrayBuffer();
        ok.add(id);
      } else {
        await expectStateUnavailable(res);
        refused.add(id);
      }
    }
    expect(refused.size).toBe(5);
    expect(ok.size).toBeGreaterThan(0);
    const rows = requestIdsOfRows(w.state);
    for (const id of ok) expect(rows.has(id)).toBe(true);
    for (const id of refused) expect(rows.has(id)).toBe(false);
    // A refused request used none of the quota: its count was in the transaction that failed.
    const counted = (w.state.sqlite.prepare('SELECT sum(count) AS n FROM rate_counters').get() as { n: number }).n;
    expect(counted).toBe(ok.size + 1);
    expect(errorLines(w).filter((l) => l.fields.sqlite === 'SQLITE_FULL')).toHaveLength(5);
    expect(errorLines(w)).toHaveLength(5);
  });

  it('when the key table is corrupt on disk then the gate answers 503 state_unavailable instead of 500 or a crash', async () => {
    w = await fixtureWorld();
    w.state.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const { rootpage } = w.state.sqlite.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'api_keys'").get() as { rootpage: number };
    const pageSize = w.state.sqlite.pragma('page_size', { simple: true }) as number;
    w.state.close();
    const fd = openSync(w.stateFile, 'r+');
    writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (rootpage - 1) * pageSize);
    closeSync(fd);
    const db = openStateDb(w.stateFile); // page 1 is intact: opening and the version check succeed
    extra.push(db);
    const res = await w.app({ db }).request(SUMMARY, { headers: bearer(w.acme.key) });
    await expectStateUnavailable(res);
    expect(errorLines(w)).toHaveLength(1);
    expect(String(errorLines(w)[0].fields.sqlite)).toMatch(/^SQLITE_(CORRUPT|NOTADB)/);
  });
});
