/**
 * Test fixture for the search suites: a real index built with the real builder in a temp folder laid
 * out like a snapshot root, and a small Hono app that mounts the real route behind a stand-in for the
 * proxy's front middleware (request id, ProxyEnv variables, CatalogError → JSON error body).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import type { ProxyEnv } from '../../proxy/env.js';
import { createSearchAnswer } from '../../proxy/routes/search.js';
import { catalogTable } from '../../proxy/route-table/catalog-table.js';
import { registerRoutes } from '../../proxy/route-table/register.js';
import type { RouteDeps } from '../../proxy/route-table/route.js';
import { createSearchIndexCache, type SearchIndexCache } from '../../proxy/search/index-cache.js';
import { createSearchIndexBuilder } from '../../compiler/search/index-builder.js';
import type { SearchEntry } from '../../compiler/search/entry.js';
import { createFsSnapshotReader } from '../../snapshots/store/fs.js';
import { SEARCH_DB_FILE } from '../../snapshots/keys.js';
import { isCatalogError } from '../../snapshots/errors.js';
import type { Game } from '../../snapshots/records.js';
import type { SnapshotReader } from '../../snapshots/store/types.js';

export const SNAPSHOT_ID = '20261120T020000Z-0000abcd';
export const AS_OF = '2026-11-20';

export function card(id: string, game: Game, name: string, popularity: number, extra: Partial<SearchEntry> = {}): SearchEntry {
  return {
    kind: 'card', id, game, name, setName: extra.setName ?? 'Core Set', artist: extra.artist ?? 'Anne Artist',
    number: extra.number ?? '1', popularity,
    summary: { id, name, game, setName: extra.setName ?? 'Core Set', number: extra.number ?? '1', marketCents: popularity },
    ...extra,
  };
}

export function figure(id: string, name: string, popularity: number): SearchEntry {
  return { kind: 'figure', id, game: null, name, setName: 'Blind Box Series 1', artist: null, number: null, popularity, summary: { id, name, seriesId: 'series-1' } };
}

export function set(id: string, game: Game, name: string, popularity: number): SearchEntry {
  return { kind: 'set', id, game, name, setName: null, artist: null, number: null, popularity, summary: { id, name, game, cards: 10 } };
}

/** Hand-picked entries the suites assert on, plus filler so the index is not trivially small. */
export function standardEntries(): SearchEntry[] {
  const entries: SearchEntry[] = [
    card('mtg-bolt', 'mtg', 'Bolt', 10),
    card('mtg-boltwing', 'mtg', 'Boltwing Dragon', 9000),
    card('mtg-lightning-bolt', 'mtg', 'Lightning Bolt', 500, { setName: 'Alpha', artist: 'Christopher Rush', number: '161' }),
    card('mtg-thunderbolt-ring', 'mtg', 'Ring of Thunder', 20, { setName: 'Bolt Expansion' }),
    card('pkm-seance', 'pokemon', 'Séance Medium', 50, { artist: 'Hervé Dupont' }),
    card('lor-seance', 'lorcana', 'Seance Keeper', 40),
    card('pkm-charizard', 'pokemon', 'Charizard', 10000, { number: '4' }),
    card('pkm-charmander', 'pokemon', 'Charmander', 5000),
    card('mtg-chandra', 'mtg', 'Chandra, Torch of Defiance', 3000),
    card('op-luffy', 'onepiece', 'Monkey D. Luffy', 800, { number: 'OP01-001' }),
    card('mtg-urza-saga', 'mtg', "Urza's Saga", 700),
    card('mtg-near-death', 'mtg', 'Near Death Experience', 30),
    card('mtg-or-else', 'mtg', 'Or Else', 25),
    card('mtg-not-dead', 'mtg', 'Not Dead Yet', 24),
    card('mtg-name-x', 'mtg', 'Name Sticker X', 23),
    card('mtg-a-one', 'mtg', 'A Tale of Quartz', 22),
    card('mtg-quote', 'mtg', 'The "Quoted" Star*', 21),
    card('lor-elsa', 'lorcana', 'Elsa, Snow Queen', 900),
    card('mtg-long-name', 'mtg', 'Our Market Research Shows That Players Like Really Long Card Names', 19),
    figure('fig-bolt', 'Bolt the Super Dog', 60),
    figure('fig-chara', 'Chara Plush', 70),
    set('set-mtg-bolt', 'mtg', 'Bolt Collection', 5),
  ];
  const adjectives = ['Ancient', 'Brave', 'Crimson', 'Dark', 'Eternal', 'Frozen', 'Gilded', 'Hidden', 'Iron', 'Jade'];
  const nouns = ['Golem', 'Wizard', 'Knight', 'Serpent', 'Phoenix', 'Titan', 'Oracle', 'Warden', 'Specter', 'Hydra'];
  const games: Game[] = ['mtg', 'pokemon', 'lorcana', 'onepiece'];
  for (let i = 0; i < 300; i++) {
    const name = `${adjectives[i % 10]} ${nouns[Math.floor(i / 10) % 10]}`;
    entries.push(card(`filler-${i}`, games[i % 4], name, (i * 37) % 101, { number: String(i + 1), setName: 'Filler Set' }));
  }
  return entries;
}

export interface Fixture {
  root: string;
  reader: SnapshotReader;
  indexes: SearchIndexCache;
  app: Hono<ProxyEnv>;
  /** What the route reported back through the ProxyEnv variables on the last request. */
  last: { routePattern?: string; snapshotId?: string | null };
  cleanup(): Promise<void>;
}

export function buildIndex(dir: string, entries: Iterable<SearchEntry>, asOf: string | null = AS_OF): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, SEARCH_DB_FILE);
  const builder = createSearchIndexBuilder(path, { asOf, batchSize: 97 });
  for (const e of entries) builder.add(e);
  builder.finish();
  return path;
}

export function testApp(snapshot: () => Promise<SnapshotReader>, indexes: SearchIndexCache) {
  const last: Fixture['last'] = {};
  const app = new Hono<ProxyEnv>();
  app.use('*', async (c, next) => {
    c.set('requestId', 'req-test');
    c.set('auth', { kind: 'internal' });
    c.set('snapshotId', null);
    c.header('X-Request-Id', 'req-test');
    await next();
    last.routePattern = c.get('routePattern');
    last.snapshotId = c.get('snapshotId');
  });
  app.onError((err, c) => {
    const status = isCatalogError(err) ? err.status : 500;
    const code = isCatalogError(err) ? err.code : 'internal';
    const message = isCatalogError(err) ? err.message : 'internal error';
    c.header('Cache-Control', 'no-store');
    return c.json({ error: code, message, requestId: c.get('requestId') }, status as 400);
  });
  // Only the search route is mounted, so its answer is the only dependency reached.
  const search = createSearchAnswer({ snapshot: () => snapshot(), indexes });
  registerRoutes(app, catalogTable().filter((r) => r.path === '/v1/search'), { search } as RouteDeps);
  return { app, last };
}

export function createFixture(entries: SearchEntry[] = standardEntries()): Fixture {
  const root = mkdtempSync(join(tmpdir(), 'search-test-'));
  buildIndex(join(root, SNAPSHOT_ID), entries);
  const reader = createFsSnapshotReader(root, SNAPSHOT_ID);
  const indexes = createSearchIndexCache();
  const { app, last } = testApp(async () => reader, indexes);
  return {
    root, reader, indexes, app, last,
    async cleanup() {
      await indexes.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export interface SearchBody {
  apiVersion: string;
  kind: string;
  asOf: string | null;
  data: Array<Record<string, unknown> & { kind: string; id: string; game: string | null; match: string }>;
  page: { page: number; limit: number; total: number; totalPages: number; hasMore: boolean };
  warnings: string[];
}

export async function search(app: Hono<ProxyEnv>, query: string, init?: RequestInit): Promise<{ res: Response; body: SearchBody }> {
  const res = await app.request(`/v1/search?${query}`, init);
  const text = await res.text();
  return { res, body: (text.length > 0 ? JSON.parse(text) : null) as SearchBody };
}

export const q = (text: string) => `q=${encodeURIComponent(text)}`;
export const ids = (body: SearchBody) => body.data.map((d) => d.id);
