/**
 * WAL checkpoints off the request path (proxy/state/checkpoints.ts): a serving connection does not
 * checkpoint inside its commits at SQLite's default 1000 pages, and the timer's PASSIVE checkpoint
 * copies the WAL into the database so the next write restarts it (the WAL stays bounded).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVING_AUTOCHECKPOINT_PAGES, startCheckpoints, type Checkpoints } from '../../proxy/state/checkpoints.js';
import { openStateDb, type StateDb } from '../../proxy/state/open.js';
import { tempDir } from '../helpers/auth-fixtures.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

function serving(): { state: StateDb; file: string } {
  const tmp = tempDir('catalog-checkpoints-');
  const file = join(tmp.dir, 'state.sqlite');
  const state = openStateDb(file, { walAutocheckpointPages: SERVING_AUTOCHECKPOINT_PAGES });
  state.sqlite.exec('CREATE TABLE filler (b BLOB NOT NULL)');
  cleanups.push(() => {
    state.close();
    tmp.cleanup();
  });
  return { state, file };
}

const PAGE = 4096;
const walPages = (file: string) => statSync(`${file}-wal`).size / PAGE;

/** Writes about `pages` pages in small commits, as requests do. */
function writePages(state: StateDb, pages: number): void {
  const insert = state.sqlite.prepare('INSERT INTO filler (b) VALUES (zeroblob(3000))');
  for (let i = 0; i < pages; i++) insert.run();
}

describe('WAL checkpoints', () => {
  it('when a serving connection commits past 1000 WAL pages then no commit checkpointed (the WAL kept every frame)', () => {
    const { state, file } = serving();
    writePages(state, 1500);
    expect(walPages(file)).toBeGreaterThan(1500);
  });

  it('when the timer checkpoints then the whole WAL is in the database and the next write starts the WAL over', () => {
    const { state, file } = serving();
    let checkpoints: Checkpoints | null = null;
    checkpoints = startCheckpoints({ state, intervalMs: 60_000 });
    cleanups.push(() => checkpoints!.stop());
    writePages(state, 1200);
    const result = checkpoints.run();
    expect(result.busy).toBe(0);
    expect(result.log).toBeGreaterThan(1200);
    expect(result.checkpointed).toBe(result.log);
    // Another connection sees every row from the database file alone once the WAL restarts.
    writePages(state, 10);
    const after = state.sqlite.prepare('PRAGMA wal_checkpoint(PASSIVE)').get() as { log: number };
    expect(after.log).toBeLessThan(100);
    const other = new Database(file, { readonly: true });
    try {
      expect((other.prepare('SELECT count(*) AS n FROM filler').get() as { n: number }).n).toBe(1210);
    } finally {
      other.close();
    }
  });

  it('when the timer runs then it checkpoints on its own and stops when told', async () => {
    const { state } = serving();
    const checkpoints = startCheckpoints({ state, intervalMs: 10 });
    cleanups.push(() => checkpoints.stop());
    writePages(state, 50);
    await new Promise((resolve) => setTimeout(resolve, 60));
    const status = state.sqlite.prepare('PRAGMA wal_checkpoint(PASSIVE)').get() as { log: number; checkpointed: number };
    expect(status.checkpointed).toBe(status.log);
    checkpoints.stop();
  });

  it('when walAutocheckpointPages is negative then openStateDb refuses it', () => {
    expect(() => openStateDb(':memory:', { walAutocheckpointPages: -1 })).toThrow(/walAutocheckpointPages/);
  });
});
