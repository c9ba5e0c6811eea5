/**
 * Group commit of the state file (proxy/state/group-commit.ts): writes of one event-loop turn share
 * one transaction, a caller resumes only after the commit, a failed batch keeps nothing, and a lock
 * held by another connection is waited for without blocking the event loop. Through the app: limits
 * stay exact and every answered request has its committed row when requests are concurrent.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../proxy/app.js';
import { createGroupCommit } from '../../proxy/state/group-commit.js';
import { openStateDb, type StateDb } from '../../proxy/state/open.js';
import { auditRows, authHarness, bearer, INTERNAL_KEY, tempDir, type AuthHarness } from '../helpers/auth-fixtures.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

function stateFile(options: { busyTimeoutMs?: number } = {}): { state: StateDb; file: string } {
  const tmp = tempDir('catalog-group-commit-');
  const file = join(tmp.dir, 'state.sqlite');
  const state = openStateDb(file, options);
  state.sqlite.exec('CREATE TABLE marks (n INTEGER NOT NULL)');
  cleanups.push(() => {
    state.close();
    tmp.cleanup();
  });
  return { state, file };
}

function otherConnection(file: string): Database.Database {
  const db = new Database(file);
  cleanups.push(() => db.close());
  return db;
}

const countMarks = (db: Database.Database) => (db.prepare('SELECT count(*) AS n FROM marks').get() as { n: number }).n;

describe('group commit', () => {
  it('when writes are queued in the same turn then they run in one transaction and are visible only after their promises resolve', async () => {
    const { state, file } = stateFile();
    const other = otherConnection(file);
    const commits = createGroupCommit(state);
    const insert = state.sqlite.prepare('INSERT INTO marks (n) VALUES (?)');
    const seenByOther: number[] = [];
    const a = commits.run(() => {
      insert.run(1);
      return 'a';
    });
    const b = commits.run(() => {
      // Same transaction as a: a's row is not committed yet, so another connection cannot see it.
      seenByOther.push(countMarks(other));
      expect(state.sqlite.inTransaction).toBe(true);
      insert.run(2);
      return 'b';
    });
    expect(commits.pending).toBe(2);
    expect(await Promise.all([a, b])).toEqual(['a', 'b']);
    expect(seenByOther).toEqual([0]);
    expect(countMarks(other)).toBe(2);
  });

  it('when one write of a batch fails then every caller is rejected and none of the batch is kept', async () => {
    const { state, file } = stateFile();
    const commits = createGroupCommit(state);
    const insert = state.sqlite.prepare('INSERT INTO marks (n) VALUES (?)');
    const ok = commits.run(() => insert.run(1));
    const bad = commits.run(() => {
      throw new Error('broken write');
    });
    await expect(ok).rejects.toThrow('broken write');
    await expect(bad).rejects.toThrow('broken write');
    expect(countMarks(otherConnection(file))).toBe(0);
    // The next batch is independent of the failed one.
    await commits.run(() => insert.run(3));
    expect(countMarks(otherConnection(file))).toBe(1);
  });

  it('when another connection holds the write lock then the batch waits without blocking the event loop and commits once it is released', async () => {
    const { state, file } = stateFile();
    const other = otherConnection(file);
    const commits = createGroupCommit(state);
    other.exec('BEGIN IMMEDIATE');
    let settled = false;
    const write = commits.run(() => state.sqlite.prepare('INSERT INTO marks (n) VALUES (1)').run()).finally(() => {
      settled = true;
    });
    // Timers still fire while the batch waits: SQLite's busy handler would have slept in the call.
    const started = performance.now();
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(settled).toBe(false);
    other.exec('COMMIT');
    await write;
    expect(countMarks(other)).toBe(1);
  });

  it('when the lock stays taken past busy_timeout then the callers are rejected with SQLITE_BUSY', async () => {
    const { state, file } = stateFile({ busyTimeoutMs: 50 });
    const other = otherConnection(file);
    const commits = createGroupCommit(state);
    other.exec('BEGIN IMMEDIATE');
    try {
      await expect(commits.run(() => state.sqlite.prepare('INSERT INTO marks (n) VALUES (1)').run())).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    } finally {
      other.exec('ROLLBACK');
    }
    // The connection keeps its configured wait for everything else.
    expect(state.sqlite.pragma('busy_timeout', { simple: true })).toBe(50);
  });
});

describe('concurrent requests through two apps on one state file', () => {
  let h: AuthHarness;
  afterEach(() => h?.close());

  it('when 40 requests of one key arrive at once on two apps then exactly the limit is allowed and every request has one committed audit row', async () => {
    h = authHarness({ env: { CATALOG_INTERNAL_KEY: INTERNAL_KEY, CATALOG_TIER_LIMITS: 'free=25' } });
    const { key } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    const second = openStateDb(h.stateFile);
    cleanups.push(() => second.close());
    const worker2 = createApp({ db: second, config: h.config, snapshots: { current: async () => null }, clock: h.clock });
    const apps = [h.app, worker2];
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => apps[i % 2].request('/v1/catalog/summary', { headers: bearer(key) })),
    );
    const limited = responses.filter((r) => r.status === 429).length;
    expect(limited).toBe(15);
    const rows = auditRows(h.state);
    expect(rows).toHaveLength(40);
    expect(new Set(rows.map((r) => r.request_id))).toEqual(new Set(responses.map((r) => r.headers.get('X-Request-Id'))));
    const remaining = responses.filter((r) => r.status !== 429).map((r) => r.headers.get('RateLimit'));
    expect(remaining.sort()).toEqual(Array.from({ length: 25 }, (_, i) => `"free";r=${i};t=30`).sort());
  });
});
