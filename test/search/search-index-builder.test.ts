import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchIndexBuilder } from '../../compiler/search/index-builder.js';
import type { SearchEntry } from '../../compiler/search/entry.js';
import { SEARCH_SCHEMA_VERSION } from '../../snapshots/search-schema.js';
import { isCatalogError } from '../../snapshots/errors.js';
import { card, figure, set } from './fixture.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'search-builder-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function build(name: string, entries: Iterable<SearchEntry>, batchSize = 7): string {
  const path = join(dir, name);
  const builder = createSearchIndexBuilder(path, { asOf: '2026-11-20', batchSize });
  for (const e of entries) builder.add(e);
  expect(builder.count).toBeGreaterThanOrEqual(0);
  builder.finish();
  return path;
}

describe('search index builder', () => {
  it('numbers entries by popularity (ties by id) so FTS rowid order is popularity order', () => {
    const entries = [card('c', 'mtg', 'Gamma', 5), card('a', 'mtg', 'Alpha', 5), card('z', 'pokemon', 'Zeta', 99), figure('f', 'Figure', 1), set('s', 'mtg', 'Set', 50)];
    const db = new Database(build('order.sqlite', entries), { readonly: true });
    expect(db.prepare('SELECT rank, id FROM search_entries ORDER BY rank').all()).toEqual([
      { rank: 1, id: 'z' }, { rank: 2, id: 's' }, { rank: 3, id: 'a' }, { rank: 4, id: 'c' }, { rank: 5, id: 'f' },
    ]);
    expect(db.prepare(`SELECT rowid FROM search_fts WHERE search_fts MATCH 'scope : cardmtg' ORDER BY rowid`).pluck().all()).toEqual([3, 4]);
    expect(db.prepare(`SELECT rowid FROM search_fts WHERE search_fts MATCH 'scope : figure'`).pluck().all()).toEqual([5]);
    db.close();
  });

  it('stores folded text, the summary as stable JSON, the schema version and asOf, and leaves a read-only friendly file', () => {
    const path = build('meta.sqlite', [card('x', 'pokemon', 'Séance Ⅻ', 3, { summary: { z: 1, a: 'é' } })]);
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SEARCH_SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(db.prepare('SELECT name_key, summary, scope FROM search_entries').get()).toEqual({ name_key: 'seance xii', summary: '{"a":"é","z":1}', scope: 'cardpokemon' });
    expect(db.prepare(`SELECT value FROM search_meta WHERE key = 'asOf'`).pluck().get()).toBe('2026-11-20T00:00:00.000Z');
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE name = 'search_staging'`).get()).toBeUndefined();
    expect(db.pragma('freelist_count', { simple: true })).toBe(0);
    db.close();
    // Built in <index>-build from entries staged in <index>-staging, both deleted once the index is written.
    for (const left of ['-journal', '-build', '-staging']) expect(existsSync(`${path}${left}`), left).toBe(false);
  });

  it('streams: many staging batches give the same index as one', () => {
    const entries = Array.from({ length: 500 }, (_, i) => card(`id-${i}`, 'mtg', `Name ${i % 13}`, i % 17));
    const read = (path: string) => {
      const db = new Database(path, { readonly: true });
      const rows = db.prepare('SELECT rank, id, name_key FROM search_entries ORDER BY rank').all();
      db.close();
      return rows;
    };
    expect(read(build('batched.sqlite', entries, 3))).toEqual(read(build('single.sqlite', entries, 10_000)));
  });

  it('rebuilds over a partial file left by a crashed run', () => {
    const path = join(dir, 'retry.sqlite');
    const first = createSearchIndexBuilder(path);
    first.add(card('old', 'mtg', 'Old', 1));
    // no finish: the process "crashed"; the file stays behind
    const second = createSearchIndexBuilder(path);
    second.add(card('new', 'mtg', 'New', 1));
    second.finish();
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT id FROM search_entries').pluck().all()).toEqual(['new']);
    db.close();
  });

  it('rejects an invalid entry naming it, and use after finish', () => {
    const builder = createSearchIndexBuilder(join(dir, 'invalid.sqlite'));
    const bad: SearchEntry[] = [
      { ...card('k', 'mtg', 'K', 1), kind: 'oracle' as SearchEntry['kind'] },
      { ...card('', 'mtg', 'K', 1) },
      { ...card('g', 'mtg', 'K', 1), game: 'chess' as SearchEntry['game'] },
      { ...card('p', 'mtg', 'K', 1), popularity: Number.NaN },
      { ...card('s', 'mtg', 'K', 1), summary: 'text' },
    ];
    for (const entry of bad) {
      let error: unknown;
      try {
        builder.add(entry);
      } catch (err) {
        error = err;
      }
      expect(isCatalogError(error), JSON.stringify(entry)).toBe(true);
      expect((error as Error).message).toContain(`search entry ${String(entry.kind)}/${entry.id}`);
    }
    builder.finish();
    expect(() => builder.add(card('late', 'mtg', 'Late', 1))).toThrow(/already finished/);
  });

  it('abort removes the partial files (the index being built and the staged entries)', () => {
    const path = join(dir, 'aborted.sqlite');
    const builder = createSearchIndexBuilder(path);
    builder.add(card('a', 'mtg', 'A', 1));
    expect(existsSync(`${path}-build`) && existsSync(`${path}-staging`)).toBe(true);
    builder.abort();
    for (const left of ['', '-build', '-staging']) expect(existsSync(`${path}${left}`), left).toBe(false);
  });

  it('rejects bad options with messages that name them', () => {
    expect(() => createSearchIndexBuilder(join(dir, 'o.sqlite'), { batchSize: 0 })).toThrow(/batchSize/);
    expect(() => createSearchIndexBuilder(join(dir, 'o.sqlite'), { asOf: 'yesterday' })).toThrow(/asOf/);
  });
});
