import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchIndexCache } from '../../proxy/search/index-cache.js';
import { openSearchIndex, type SearchIndex } from '../../proxy/search/search-index.js';
import { createFsSnapshotReader } from '../../snapshots/store/fs.js';
import { SEARCH_DB_FILE } from '../../snapshots/keys.js';
import type { SnapshotReader } from '../../snapshots/store/types.js';
import { buildIndex, card, ids, q, search, testApp } from './fixture.js';

const OLD = '20261119T020000Z-00000001';
const NEW = '20261120T020000Z-00000002';
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'search-cache-'));
  buildIndex(join(root, OLD), [card('old-1', 'mtg', 'Old Bolt', 1)]);
  buildIndex(join(root, NEW), [card('new-1', 'mtg', 'New Bolt', 1)]);
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

function countingOpen() {
  const opened: string[] = [];
  const closed: string[] = [];
  const open = (path: string): SearchIndex => {
    const index = openSearchIndex(path);
    opened.push(path);
    return { asOf: index.asOf, search: index.search, close: () => (closed.push(path), index.close()) };
  };
  return { open, opened, closed };
}

describe('search index handles', () => {
  it('opens one handle per snapshot id and answers from the snapshot the request resolved', async () => {
    const files = countingOpen();
    const indexes = createSearchIndexCache({ open: files.open });
    let current: SnapshotReader = createFsSnapshotReader(root, OLD);
    const { app } = testApp(async () => current, indexes);
    for (let i = 0; i < 3; i++) expect(ids((await search(app, q('bolt'))).body)).toEqual(['old-1']);
    expect(files.opened).toHaveLength(1);
    current = createFsSnapshotReader(root, NEW);
    const res = await search(app, q('bolt'));
    expect(ids(res.body)).toEqual(['new-1']);
    expect(res.res.headers.get('x-snapshot-id')).toBe(NEW);
    expect(files.opened).toHaveLength(2);
    await indexes.close();
    expect(files.closed).toHaveLength(2);
  });

  it('closes the handle of a snapshot no longer used once the grace period has passed, not before', async () => {
    const files = countingOpen();
    let clock = 1_000;
    const indexes = createSearchIndexCache({ open: files.open, graceMs: 30_000, now: () => clock });
    const oldReader = createFsSnapshotReader(root, OLD);
    const newReader = createFsSnapshotReader(root, NEW);
    const oldIndex = await indexes.forSnapshot(oldReader);
    clock += 5_000;
    await indexes.forSnapshot(newReader); // the pointer moved
    expect(indexes.openIds().sort()).toEqual([OLD, NEW]);
    // A request that resolved the old snapshot before the switch still finishes on it.
    clock += 20_000;
    expect(oldIndex.search({ exactKey: 'old bolt', scope: null, tiers: [], all: '"old"' }, 1, 5).hits.map((h) => h.id)).toEqual(['old-1']);
    await indexes.forSnapshot(newReader);
    expect(files.closed).toEqual([]);
    clock += 10_001;
    await indexes.forSnapshot(newReader);
    expect(indexes.openIds()).toEqual([NEW]);
    expect(files.closed).toEqual([join(root, OLD, SEARCH_DB_FILE)]);
    // A rollback reopens it.
    await indexes.forSnapshot(oldReader);
    expect(files.opened).toHaveLength(3);
    await indexes.close();
  });

  it('when the snapshot has no search index then 503 unavailable', async () => {
    mkdirSync(join(root, 'empty'), { recursive: true });
    const { app } = testApp(async () => createFsSnapshotReader(root, 'empty'), createSearchIndexCache());
    const res = await app.request(`/v1/search?${q('bolt')}`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: 'unavailable' });
  });

  it('when the index is of another schema version or not a database then 503, never a wrong answer', async () => {
    const dir = join(root, 'future');
    const path = buildIndex(dir, [card('x', 'mtg', 'Bolt', 1)]);
    const db = new Database(path);
    db.pragma('user_version = 99');
    db.close();
    const { app } = testApp(async () => createFsSnapshotReader(root, 'future'), createSearchIndexCache());
    const res = await app.request(`/v1/search?${q('bolt')}`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { message: string }).message).toContain('schema version 99');

    mkdirSync(join(root, 'garbage'), { recursive: true });
    writeFileSync(join(root, 'garbage', SEARCH_DB_FILE), 'not a database at all'.repeat(100));
    const broken = testApp(async () => createFsSnapshotReader(root, 'garbage'), createSearchIndexCache());
    expect((await broken.app.request(`/v1/search?${q('bolt')}`)).status).toBe(503);
  });
});
