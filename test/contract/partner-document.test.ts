/**
 * The partner document (../shared/design/partner-api-v1.md), clause by clause, through the front
 * door: a real catalog generated and compiled by the real CLI, a real SQLite state file, and the
 * Hono app answering `app.request()`. Each test is named after the clause it checks ("part 2: ...");
 * where the document leaves a point open and API.md decided it, the name says "(API.md decided)".
 * The suite reads as the document does: parts 1, 2, 4, 5, 7, 8 and 9 (3 and 6 fix nothing).
 */
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../proxy/app.js';
import { loadConfig } from '../../proxy/config.js';
import { SESSION_COOKIE, signSessionCookie } from '../../proxy/gate/session.js';
import { createKeyStore, type KeyStore } from '../../proxy/keys/store.js';
import type { MintedKey } from '../../proxy/keys/record.js';
import { openStateDb, type StateDb } from '../../proxy/state/open.js';
import { slugify } from '../../snapshots/ids.js';
import { GAMES } from '../../snapshots/records.js';
import { createFsSnapshotSource } from '../../snapshots/store/fs.js';
import { auditRows, capturingLogger, INTERNAL_KEY, SESSION_SECRET, tempDir, testClock, type LogLine, type TestClock } from '../helpers/auth-fixtures.js';
import { manifestEntries } from '../helpers/snapshot-files.js';
import { compiledCatalog, type CompiledCatalog } from '../helpers/compiled-catalog.js';

const REALM = 'partner-catalog';
const FIRST_PARTY = 'https://app.example.test';
const ENV = {
  CATALOG_INTERNAL_KEY: INTERNAL_KEY,
  CATALOG_SESSION_SECRET: SESSION_SECRET,
  CATALOG_PUBLIC_ORIGINS: FIRST_PARTY,
  CATALOG_REALM: REALM,
};
const CACHE_DIRECTIVE = 'public, s-maxage=300, stale-while-revalidate=3600';
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ENVELOPE_KEYS = ['apiVersion', 'asOf', 'data', 'kind', 'page', 'schemaVersion', 'warnings'];

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

interface World {
  catalog: CompiledCatalog;
  app: ReturnType<typeof createApp>;
  state: StateDb;
  keys: KeyStore;
  clock: TestClock;
  logs: LogLine[];
  /** Tenant acme, enterprise tier (the suite sends many requests); tenant globex, a second tenant. */
  acme: MintedKey;
  globex: MintedKey;
  /** One valid request per route of part 4, keyed by its path shape. */
  routes: Record<string, string>;
  ids: { oracle: string; series: string; showcase: string; hiddenHandles: string[] };
  cleanup(): void;
}

let w: World;

const ndjson = (path: string): Json[] => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const bearer = (key: string, extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${key}`, ...extra });

async function get(path: string, headers: Record<string, string> = bearer(w.acme.key)): Promise<{ res: Response; body: Json; raw: Buffer }> {
  const res = await w.app.request(path, { headers });
  const raw = Buffer.from(await res.arrayBuffer());
  const text = (res.headers.get('Content-Encoding') === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
  let body: Json = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { res, body, raw };
}

/** Every value under `value`, with the key it sits under (array items carry their array's key). */
function* walk(value: Json, key = ''): Generator<[string, Json]> {
  yield [key, value];
  if (Array.isArray(value)) for (const v of value) yield* walk(v, key);
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) yield* walk(v, k);
}

/** Reads every page of a list route (limit 100). */
async function allItems(path: string): Promise<Json[]> {
  const items: Json[] = [];
  for (let page = 1; ; page++) {
    const { body } = await get(`${path}${path.includes('?') ? '&' : '?'}limit=100&page=${page}`);
    items.push(...body.data);
    if (!body.page.hasMore) return items;
  }
}

beforeAll(async () => {
  const catalog = await compiledCatalog(300);
  const tmp = tempDir('catalog-contract-');
  const state = openStateDb(join(tmp.dir, 'state.sqlite'));
  const clock = testClock();
  const logs: LogLine[] = [];
  const keys = createKeyStore(state, { clock });
  const app = createApp({ db: state, config: loadConfig(ENV), snapshots: createFsSnapshotSource(catalog.root), clock, logger: capturingLogger(logs) });

  const cards = ndjson(join(catalog.source, 'cards.ndjson'));
  const withOracle = cards.find((c) => c.oracleId !== null);
  const withArtist = cards.find((c) => c.artist !== null);
  // The first series that has pull stats (a key v1/series/<id>/pull-stats.json.gz).
  const series = manifestEntries(catalog.root).map((e) => /^v1\/series\/([^/]+)\/pull-stats\.json\.gz$/.exec(e.key)?.[1]).filter((id) => id !== undefined).sort()[0]!;
  const showcase = catalog.users.find((u) => u.showcase && !u.anonymous && u.handle !== null)!;
  const hiddenHandles = catalog.users.filter((u) => !(u.showcase && !u.anonymous) && u.handle !== null).map((u) => u.handle!);
  const set = catalog.sets[0];
  w = {
    catalog, app, state, keys, clock, logs,
    acme: keys.mint({ tenant: 'acme', tier: 'enterprise' }),
    globex: keys.mint({ tenant: 'globex', tier: 'standard' }),
    routes: {
      '/v1/cards/:id': `/v1/cards/${catalog.cardIds[0]}`,
      '/v1/figures/:id': `/v1/figures/${catalog.figureIds[0]}`,
      '/v1/oracle/:id': `/v1/oracle/${withOracle.oracleId}`,
      '/v1/sets/:game/:setCode': `/v1/sets/${set.game}/${set.code}`,
      '/v1/search': `/v1/search?q=${encodeURIComponent(cards[0].name)}`,
      '/v1/trending': '/v1/trending',
      '/v1/recent': '/v1/recent',
      '/v1/artists/:slug': `/v1/artists/${slugify(withArtist.artist)}`,
      '/v1/figures/series/:id': `/v1/figures/series/${catalog.seriesIds[0]}`,
      '/v1/discover/sets': '/v1/discover/sets',
      '/v1/discover/users': '/v1/discover/users',
      '/v1/discover/binders': '/v1/discover/binders',
      '/v1/discover/activity': '/v1/discover/activity',
      '/v1/discover/sparklines': '/v1/discover/sparklines',
      '/v1/series/:id/pull-stats': `/v1/series/${series}/pull-stats`,
      '/v1/catalog/summary': '/v1/catalog/summary',
    },
    ids: { oracle: withOracle.oracleId, series, showcase: showcase.handle!, hiddenHandles },
    cleanup: () => {
      state.close();
      tmp.cleanup();
    },
  };
  w.routes['/v1/admin/b2b-keys/:id/audit'] = `/v1/admin/b2b-keys/${w.acme.keyId}/audit`;
}, 120_000);

afterAll(() => w?.cleanup());

const CATALOG_ROUTES = () => Object.entries(w.routes).filter(([shape]) => !shape.startsWith('/v1/admin'));

describe('part 1: what the service does', () => {
  it('part 1: every partner-callable route is GET, returns JSON and requires bearer authentication', async () => {
    for (const [shape, path] of Object.entries(w.routes)) {
      const ok = await get(path);
      expect(ok.res.status, shape).toBe(200);
      expect(ok.res.headers.get('Content-Type'), shape).toMatch(/^application\/json\b/);
      expect((await get(path, {})).res.status, shape).toBe(401);
    }
  });

  it('part 1: other methods on a catalog route are refused with 405 and Allow (API.md decided; under /v1/admin they are 403)', async () => {
    for (const [shape, path] of CATALOG_ROUTES()) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await w.app.request(path, { method, headers: bearer(w.acme.key) });
        expect(res.status, `${method} ${shape}`).toBe(405);
        expect(res.headers.get('Allow'), shape).toMatch(/\bGET\b/);
        expect((await res.json()).error).toBe('method_not_allowed');
      }
    }
    const audit = await w.app.request(w.routes['/v1/admin/b2b-keys/:id/audit'], { method: 'DELETE', headers: bearer(w.acme.key) });
    expect(audit.status).toBe(403);
  });

  it('part 1: each key maps to a tenant, a rate-limit tier and an audit log', async () => {
    const before = auditRows(w.state).length;
    const { res } = await get('/v1/catalog/summary', bearer(w.globex.key));
    expect(res.headers.get('RateLimit-Policy')).toBe('"standard";q=600;w=60');
    const rows = auditRows(w.state).slice(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ api_key_id: w.globex.keyId, tenant_name: 'globex', route: '/v1/catalog/summary', status: 200 });
  });

  it('part 1: community-observed pull-rate statistics are served per series', async () => {
    const { res, body } = await get(w.routes['/v1/series/:id/pull-stats']);
    expect(res.status).toBe(200);
    expect(body.kind).toBe('pullStats');
  });
});

describe('part 2: the catalog summary', () => {
  it('part 2: cards.total is an integer', async () => {
    const { body } = await get('/v1/catalog/summary');
    expect(Number.isInteger(body.data.cards.total)).toBe(true);
  });

  it('part 2: cards.byGame has the four game identifiers, each an integer count', async () => {
    const { body } = await get('/v1/catalog/summary');
    expect(Object.keys(body.data.cards.byGame).sort()).toEqual([...GAMES].sort());
    for (const g of GAMES) expect(Number.isInteger(body.data.cards.byGame[g]), g).toBe(true);
  });

  it('part 2: figures.total is an integer', async () => {
    const { body } = await get('/v1/catalog/summary');
    expect(Number.isInteger(body.data.figures.total)).toBe(true);
  });

  it('part 2: sets.total is an integer', async () => {
    const { body } = await get('/v1/catalog/summary');
    expect(Number.isInteger(body.data.sets.total)).toBe(true);
  });

  it('part 2: the values are snapshot counts, usable to learn the row count before a full mirror (the bulk files hold exactly that many rows)', async () => {
    const { body } = await get('/v1/catalog/summary');
    const { cards, figures, sets } = body.data;
    const byGame = GAMES.reduce((n, g) => n + cards.byGame[g], 0);
    expect(cards.total).toBe(byGame);
    const rows = async (name: string) => {
      const res = await w.app.request(`/v1/bulk/${name}`, { headers: bearer(w.acme.key) });
      expect(res.status).toBe(200);
      const raw = Buffer.from(await res.arrayBuffer());
      const text = (raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString('utf8');
      return text.split('\n').filter(Boolean).length;
    };
    expect(await rows('cards')).toBe(cards.total);
    expect(await rows('figures')).toBe(figures.total);
    expect(await rows('sets')).toBe(sets.total);
    const source = (file: string) => ndjson(join(w.catalog.source, file));
    expect(cards.total).toBe(source('cards.ndjson').length);
    for (const g of GAMES) expect(cards.byGame[g], g).toBe(source('cards.ndjson').filter((c) => c.game === g).length);
    expect(figures.total).toBe(source('figures.ndjson').length);
    expect(sets.total).toBe(source('sets.ndjson').length);
  });

  it('part 2 convention 1: JSON in UTF-8 on every route', async () => {
    for (const [shape, path] of Object.entries(w.routes)) {
      const { res, body } = await get(path);
      // RFC 8259: JSON exchanged between systems is UTF-8; a charset parameter, where sent, says so too.
      expect(res.headers.get('Content-Type'), shape).toMatch(/^application\/json(; charset=utf-8)?$/);
      expect(typeof body, shape).toBe('object');
    }
    // A name with diacritics survives the round trip as UTF-8.
    const names = ndjson(join(w.catalog.source, 'cards.ndjson')).filter((c) => /[^\x00-\x7f]/.test(c.name));
    if (names.length > 0) {
      const { body } = await get(`/v1/cards/${names[0].id}`);
      expect(body.data.name).toBe(names[0].name);
    }
  });

  it('part 2 convention 1: gzip is applied when the client accepts it, on every route, and not when it does not', async () => {
    for (const [shape, path] of Object.entries(w.routes)) {
      const plain = await get(path);
      expect(plain.res.headers.get('Content-Encoding'), shape).toBeNull();
      const zipped = await get(path, bearer(w.acme.key, { 'Accept-Encoding': 'gzip' }));
      expect(zipped.res.headers.get('Content-Encoding'), shape).toBe('gzip');
      expect(zipped.res.headers.get('Vary') ?? '', shape).toMatch(/Accept-Encoding/i);
      if (!shape.includes('audit')) expect(zipped.body, shape).toEqual(plain.body);
    }
  });

  it('part 2 convention 2: money values are integer cents, USD unless the field name carries a currency suffix', async () => {
    let seen = 0;
    for (const [shape, path] of CATALOG_ROUTES()) {
      const { body } = await get(path);
      for (const [key, value] of walk(body.data)) {
        if (!/Cents/.test(key) || Array.isArray(value)) continue;
        seen++;
        expect(value === null || Number.isInteger(value), `${shape} ${key}=${value}`).toBe(true);
        expect(key, shape).toMatch(/Cents(Eur|Gbp|Cad|Aud)?$/);
      }
    }
    expect(seen).toBeGreaterThan(20);
    const card = (await get(`${w.routes['/v1/cards/:id']}?range=all`)).body.data;
    expect(card.range.points.length).toBeGreaterThan(0);
    for (const point of card.range.points) expect(Number.isInteger(point[1])).toBe(true);
  });

  it('part 2 convention 3: timestamps are ISO-8601 UTC strings with milliseconds (YYYY-MM-DDTHH:MM:SS.mmmZ)', async () => {
    let seen = 0;
    for (const [shape, path] of Object.entries(w.routes)) {
      const { body } = await get(path);
      for (const [key, value] of walk(body)) {
        if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) continue;
        seen++;
        expect(value, `${shape} ${key}`).toMatch(TIMESTAMP);
      }
      if (body.asOf !== null) expect(body.asOf, shape).toMatch(TIMESTAMP);
    }
    expect(seen).toBeGreaterThan(50);
  });

  it('part 2 convention 4: absent data is null rather than an omitted key, so every document of a kind has the same keys', async () => {
    const cardIds = ndjson(join(w.catalog.source, 'cards.ndjson')).map((c) => c.id);
    const priced = new Set(ndjson(join(w.catalog.source, 'prices.ndjson')).filter((p) => p.entity === 'card').map((p) => p.id));
    const unpriced = cardIds.filter((id) => !priced.has(id)).slice(0, 3);
    expect(unpriced.length).toBeGreaterThan(0);
    const sample = [...cardIds.filter((id) => priced.has(id)).slice(0, 5), ...unpriced];
    const keySets = new Set<string>();
    for (const id of sample) {
      const { body } = await get(`/v1/cards/${id}`);
      keySets.add(JSON.stringify(Object.keys(body.data).sort()));
      if (unpriced.includes(id)) expect(body.data.prices, id).toBeNull();
    }
    expect([...keySets]).toHaveLength(1);
    for (const path of ['/v1/trending?limit=100', '/v1/recent?limit=100', w.routes['/v1/sets/:game/:setCode']]) {
      const shapes = new Set((await get(path)).body.data.map((item: Json) => JSON.stringify(Object.keys(item).sort())));
      expect(shapes.size, path).toBeLessThanOrEqual(2); // cards and figures are two item shapes
    }
  });

  it('part 2 convention 5: detail responses are wrapped in a versioned envelope (API.md decided: every 200 body)', async () => {
    for (const [shape, path] of Object.entries(w.routes)) {
      const { body } = await get(path);
      expect(Object.keys(body).sort(), shape).toEqual(ENVELOPE_KEYS);
      expect(body.apiVersion, shape).toBe('v1');
      expect(Number.isInteger(body.schemaVersion), shape).toBe(true);
      expect(typeof body.kind, shape).toBe('string');
    }
  });

  it('part 2 convention 6: the discover users feed returns only public-showcase opt-ins, never anonymous users', async () => {
    const optedIn = new Set(w.catalog.users.filter((u) => u.showcase && !u.anonymous).map((u) => u.handle));
    const feed = await allItems('/v1/discover/users');
    expect(feed.length).toBeGreaterThan(0);
    for (const u of feed) expect(optedIn.has(u.handle), u.handle).toBe(true);
    const text = JSON.stringify(feed);
    for (const handle of w.ids.hiddenHandles) expect(text).not.toContain(`"${handle}"`);
  });
});

describe('part 4: endpoints', () => {
  it('part 4: every endpoint of the table answers its path shape with a valid key', async () => {
    const kinds: Record<string, string> = {
      '/v1/cards/:id': 'card', '/v1/figures/:id': 'figure', '/v1/oracle/:id': 'oracle', '/v1/sets/:game/:setCode': 'set',
      '/v1/search': 'search', '/v1/trending': 'trending', '/v1/recent': 'recent', '/v1/artists/:slug': 'artist',
      '/v1/figures/series/:id': 'series', '/v1/discover/sets': 'discoverSets', '/v1/discover/users': 'discoverUsers',
      '/v1/discover/binders': 'discoverBinders', '/v1/discover/activity': 'discoverActivity',
      '/v1/discover/sparklines': 'discoverSparklines', '/v1/series/:id/pull-stats': 'pullStats',
      '/v1/catalog/summary': 'catalogSummary', '/v1/admin/b2b-keys/:id/audit': 'audit',
    };
    expect(Object.keys(w.routes).sort()).toEqual(Object.keys(kinds).sort());
    for (const [shape, path] of Object.entries(w.routes)) {
      const { res, body } = await get(path);
      expect(res.status, shape).toBe(200);
      expect(body.kind, shape).toBe(kinds[shape]);
    }
  });

  it('part 4: /v1/oracle/:id aggregates the printings of one oracle concept', async () => {
    const printings = ndjson(join(w.catalog.source, 'cards.ndjson')).filter((c) => c.oracleId === w.ids.oracle).map((c) => c.id).sort();
    const { body } = await get(`/v1/oracle/${w.ids.oracle}`);
    expect(body.data.printings.map((p: Json) => p.id).sort()).toEqual(printings);
  });

  it('part 4: /v1/artists/:slug lists all printings by an artist', async () => {
    const path = w.routes['/v1/artists/:slug'];
    const slug = path.split('/').pop()!;
    const expected = ndjson(join(w.catalog.source, 'cards.ndjson')).filter((c) => c.artist !== null && slugify(c.artist) === slug).map((c) => c.id).sort();
    expect((await allItems(path)).map((i) => i.id).sort()).toEqual(expected);
  });

  it('part 4: /v1/figures/series/:id lists every figure in a series', async () => {
    const id = w.catalog.seriesIds[0];
    const expected = ndjson(join(w.catalog.source, 'figures.ndjson')).filter((f) => f.seriesId === id).map((f) => f.id).sort();
    expect(expected.length).toBeGreaterThan(0);
    expect((await allItems(`/v1/figures/series/${id}`)).map((i) => i.id).sort()).toEqual(expected);
  });

  it('part 4: /v1/series/:id/pull-stats gives community-observed pull rates, smoothed against a global prior', async () => {
    const { body } = await get(w.routes['/v1/series/:id/pull-stats']);
    expect(body.data.figures.length).toBeGreaterThan(0);
    for (const f of body.data.figures) {
      expect(f.prior.rate).toBeGreaterThan(0);
      expect(f.smoothedRate).toBeGreaterThan(0);
      expect(f.smoothedRate).toBeLessThan(1);
    }
  });

  it('part 4: /v1/cards/:id takes range, one of 30d, 3mo, 6mo, 12mo, all', async () => {
    const path = w.routes['/v1/cards/:id'];
    for (const range of ['30d', '3mo', '6mo', '12mo', 'all']) {
      const { res, body } = await get(`${path}?range=${range}`);
      expect(res.status, range).toBe(200);
      expect(body.data.range.name, range).toBe(range);
    }
  });

  it('part 4: /v1/cards/:id range defaults to 30d', async () => {
    const path = w.routes['/v1/cards/:id'];
    const plain = await get(path);
    const explicit = await get(`${path}?range=30d`);
    expect(plain.raw.equals(explicit.raw)).toBe(true);
    expect(plain.res.headers.get('ETag')).toBe(explicit.res.headers.get('ETag'));
  });

  it('part 4: a range outside the five values is 400 invalid_parameter naming range (API.md decided)', async () => {
    const { res, body } = await get(`${w.routes['/v1/cards/:id']}?range=7d`);
    expect(res.status).toBe(400);
    expect(body.error).toBe('invalid_parameter');
    expect(body.message).toContain('range');
  });

  it('part 4: /v1/sets/:game/:setCode page defaults to 1', async () => {
    const path = w.routes['/v1/sets/:game/:setCode'];
    const plain = await get(path);
    expect(plain.body.page.page).toBe(1);
    expect(plain.raw.equals((await get(`${path}?page=1`)).raw)).toBe(true);
  });

  it('part 4: /v1/sets/:game/:setCode takes an integer page; a page past the end is 200 with no items (API.md decided)', async () => {
    const path = w.routes['/v1/sets/:game/:setCode'];
    const second = await get(`${path}?limit=2&page=2`);
    expect(second.body.page).toMatchObject({ page: 2, limit: 2 });
    const past = await get(`${path}?page=9999`);
    expect(past.res.status).toBe(200);
    expect(past.body.data).toEqual([]);
    expect((await get(`${path}?page=x`)).res.status).toBe(400);
  });

  it('part 4: /v1/search q is free text', async () => {
    const card = ndjson(join(w.catalog.source, 'cards.ndjson'))[0];
    const { res, body } = await get(`/v1/search?q=${encodeURIComponent(card.name)}`);
    expect(res.status).toBe(200);
    expect(body.data.map((i: Json) => i.id)).toContain(card.id);
  });

  it('part 4: /v1/search supports a game prefix of the form <game>:<text>', async () => {
    const cards = ndjson(join(w.catalog.source, 'cards.ndjson'));
    for (const game of GAMES) {
      const card = cards.find((c) => c.game === game);
      if (!card) continue;
      const word = card.name.split(' ')[0];
      const { res, body } = await get(`/v1/search?q=${encodeURIComponent(`${game}:${word}`)}`);
      expect(res.status, game).toBe(200);
      expect(body.data.length, game).toBeGreaterThan(0);
      for (const item of body.data) expect(item.game, game).toBe(game);
    }
  });

  it('part 4: /v1/trending filters by game', async () => {
    for (const game of GAMES) {
      const { res, body } = await get(`/v1/trending?game=${game}&limit=100`);
      expect(res.status, game).toBe(200);
      for (const item of body.data) expect(item.game, game).toBe(game);
    }
  });

  it('part 4: /v1/recent filters by game', async () => {
    for (const game of GAMES) {
      const { res, body } = await get(`/v1/recent?game=${game}&limit=100`);
      expect(res.status, game).toBe(200);
      expect(body.data.length, game).toBeGreaterThan(0);
      for (const item of body.data) expect(item.game, game).toBe(game);
    }
  });

  it('part 4: /v1/trending ranks by 24-hour velocity', async () => {
    const { body } = await get('/v1/trending?limit=100');
    const velocities = body.data.map((i: Json) => i.velocity24h);
    expect(velocities).toEqual([...velocities].sort((a, b) => b - a));
  });

  it('part 4: /v1/recent lists the most recently added first', async () => {
    const { body } = await get('/v1/recent?limit=100');
    const added = body.data.map((i: Json) => i.addedAt);
    expect(added).toEqual([...added].sort().reverse());
  });

  it('part 4: /v1/me/* is session-only: a bearer key is refused with 403, a session passes the gate', async () => {
    const key = await get('/v1/me/binders');
    expect(key.res.status).toBe(403);
    expect(key.body.error).toBe('forbidden');
    const cookie = `${SESSION_COOKIE}=${signSessionCookie(SESSION_SECRET, { sub: 'user-1', exp: Math.floor(w.clock() / 1000) + 600 })}`;
    const session = await get('/v1/me/binders', { Cookie: cookie });
    expect([401, 403]).not.toContain(session.res.status);
  });

  it('part 4: /v1/u/:handle/* is reachable without a bearer key, also cross-origin', async () => {
    for (const path of [`/v1/u/${w.ids.showcase}`, `/v1/u/${w.ids.showcase}/binders`]) {
      expect((await get(path, {})).res.status, path).toBe(200);
      expect((await get(path, { Origin: 'https://elsewhere.example' })).res.status, path).toBe(200);
    }
  });

  it('part 4: /v1/u/:handle/* has the same redaction rules as bearer paths (same bytes with or without a key; a user who did not opt in does not exist on either)', async () => {
    for (const path of [`/v1/u/${w.ids.showcase}`, `/v1/u/${w.ids.showcase}/binders`]) {
      const open = await get(path, { 'Accept-Encoding': 'gzip' });
      const keyed = await get(path, bearer(w.acme.key, { 'Accept-Encoding': 'gzip' }));
      expect(open.raw.equals(keyed.raw), path).toBe(true);
    }
    expect(w.ids.hiddenHandles.length).toBeGreaterThan(0);
    for (const handle of w.ids.hiddenHandles.slice(0, 5)) {
      expect((await get(`/v1/u/${handle}`, {})).res.status, handle).toBe(404);
      expect((await get(`/v1/u/${handle}`)).res.status, handle).toBe(404);
      expect((await get(`/v1/search?q=${encodeURIComponent(handle)}`)).body.data, handle).toEqual([]);
    }
  });

  it('part 4: /v1/admin/* is not partner-readable: a bearer key gets 403, except the audit route of its own keys', async () => {
    for (const [method, path] of [['GET', '/v1/admin/b2b-keys'], ['POST', '/v1/admin/b2b-keys'], ['DELETE', `/v1/admin/b2b-keys/${w.acme.keyId}`], ['GET', '/v1/admin/anything']]) {
      const res = await w.app.request(path, { method, headers: bearer(w.acme.key) });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect((await get(`/v1/admin/b2b-keys/${w.acme.keyId}/audit`)).res.status).toBe(200);
  });

  it('part 4: /v1/observations is the mobile write surface: a bearer key gets 403', async () => {
    for (const method of ['GET', 'POST']) {
      const res = await w.app.request('/v1/observations', { method, headers: bearer(w.acme.key) });
      expect(res.status, method).toBe(403);
    }
  });
});

describe('part 5: authentication', () => {
  it('part 5.1: a key is rxk_ plus a 32-character suffix, generated server-side (base62 from a secure source: API.md decided)', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const res = await w.app.request('/v1/admin/b2b-keys', {
        method: 'POST', headers: { 'X-Service-Internal-Key': INTERNAL_KEY, 'Content-Type': 'application/json' }, body: JSON.stringify({ tenant: 'format-check' }),
      });
      expect(res.status).toBe(201);
      const { key } = await res.json();
      expect(key).toMatch(/^rxk_[A-Za-z0-9]{32}$/);
      seen.add(key);
    }
    expect(seen.size).toBe(40);
  });

  it('part 5.1: a key is a credential: it is never echoed back after minting (listing shows the key ID only)', async () => {
    const res = await w.app.request('/v1/admin/b2b-keys?tenant=acme', { headers: { 'X-Service-Internal-Key': INTERNAL_KEY } });
    const text = await res.text();
    expect(text).toContain(w.acme.keyId);
    expect(text).not.toContain(w.acme.key);
    expect(JSON.stringify(auditRows(w.state))).not.toContain(w.acme.key);
    expect(JSON.stringify(w.logs)).not.toContain(w.acme.key);
  });

  it('part 5.2: caller kind 1, a B2B bearer key: validated, tenant attached, rate-limit accounting runs', async () => {
    const before = auditRows(w.state).length;
    const { res } = await get('/v1/catalog/summary');
    expect(res.status).toBe(200);
    expect(res.headers.get('RateLimit-Policy')).toBe('"enterprise";q=6000;w=60');
    expect(auditRows(w.state).slice(before)).toMatchObject([{ api_key_id: w.acme.keyId, tenant_name: 'acme' }]);
  });

  it('part 5.2: caller kind 2, a session cookie of the service\'s own apps, is accepted without rate-limit accounting', async () => {
    const cookie = `${SESSION_COOKIE}=${signSessionCookie(SESSION_SECRET, { sub: 'user-1', exp: Math.floor(w.clock() / 1000) + 600 })}`;
    const before = auditRows(w.state).length;
    const { res } = await get('/v1/catalog/summary', { Cookie: cookie, Origin: 'https://elsewhere.example' });
    expect(res.status).toBe(200);
    expect(res.headers.get('RateLimit')).toBeNull();
    expect(auditRows(w.state)).toHaveLength(before);
    const forged = `${SESSION_COOKIE}=${signSessionCookie('another-secret-of-the-same-length-0123456789', { sub: 'user-1', exp: Math.floor(w.clock() / 1000) + 600 })}`;
    expect((await get('/v1/catalog/summary', { Cookie: forged })).res.status).toBe(401);
  });

  it('part 5.2: caller kind 3, the first-party header X-Service-Internal-Key, is accepted; a wrong value is not', async () => {
    expect((await get('/v1/catalog/summary', { 'X-Service-Internal-Key': INTERNAL_KEY })).res.status).toBe(200);
    expect((await get('/v1/catalog/summary', { 'X-Service-Internal-Key': `${INTERNAL_KEY}x` })).res.status).toBe(401);
  });

  it('part 5.2: caller kind 4, a same-origin anonymous caller, is accepted (API.md decided: a configured Origin or Sec-Fetch-Site: same-origin)', async () => {
    expect((await get('/v1/catalog/summary', { Origin: FIRST_PARTY })).res.status).toBe(200);
    expect((await get('/v1/catalog/summary', { 'Sec-Fetch-Site': 'same-origin' })).res.status).toBe(200);
  });

  it('part 5.3: a cross-origin request without a valid bearer key is refused with 401; no anonymous access from outside', async () => {
    for (const headers of [
      { Origin: 'https://elsewhere.example' },
      { Origin: 'https://elsewhere.example', 'Sec-Fetch-Site': 'cross-site' },
      { Origin: 'https://elsewhere.example', Authorization: 'Bearer rxk_00000000000000000000000000000000' },
      {},
    ]) {
      for (const [shape, path] of CATALOG_ROUTES()) expect((await get(path, headers)).res.status, `${shape} ${JSON.stringify(headers)}`).toBe(401);
    }
  });

  it('part 5.4: the key ID is the first 8 characters of the suffix, without the prefix', async () => {
    expect(w.acme.keyId).toBe(w.acme.key.slice(4, 12));
    const before = auditRows(w.state).length;
    await get('/v1/recent');
    expect(auditRows(w.state)[before].api_key_id).toBe(w.acme.key.slice(4, 12));
  });

  it('part 5.5: keys are minted through the admin path /v1/admin/b2b-keys, which a partner key cannot call', async () => {
    const res = await w.app.request('/v1/admin/b2b-keys', {
      method: 'POST', headers: { ...bearer(w.acme.key), 'Content-Type': 'application/json' }, body: JSON.stringify({ tenant: 'acme' }),
    });
    expect(res.status).toBe(403);
  });

  it('part 5.5: rotation is manual: the operator issues a replacement for a key ID and the old key is revoked', async () => {
    const old = w.keys.mint({ tenant: 'rotating', tier: 'free' });
    const res = await w.app.request(`/v1/admin/b2b-keys/${old.keyId}/rotate`, { method: 'POST', headers: { 'X-Service-Internal-Key': INTERNAL_KEY } });
    expect(res.status).toBe(201);
    const fresh = await res.json();
    expect(fresh).toMatchObject({ tenant: 'rotating', tier: 'free' });
    expect((await get('/v1/catalog/summary', bearer(old.key))).res.status).toBe(401);
    expect((await get('/v1/catalog/summary', bearer(fresh.key))).res.status).toBe(200);
  });

  it('part 5.6: every B2B-authenticated request is logged with api_key_id, tenant_name, route, status, timestamp, whatever its status', async () => {
    const before = auditRows(w.state).length;
    await get(`/v1/cards/${w.catalog.cardIds[0]}?range=3mo`);
    await get('/v1/cards/no-such-card');
    await get(`/v1/cards/${w.catalog.cardIds[0]}?range=bad`);
    await get('/v1/me');
    const rows = auditRows(w.state).slice(before);
    expect(rows.map((r) => [r.api_key_id, r.tenant_name, r.route, r.status])).toEqual([
      [w.acme.keyId, 'acme', '/v1/cards/:id', 200],
      [w.acme.keyId, 'acme', '/v1/cards/:id', 404],
      [w.acme.keyId, 'acme', '/v1/cards/:id', 400],
      [w.acme.keyId, 'acme', expect.any(String), 403],
    ]);
    for (const r of rows) expect(new Date(r.timestamp).toISOString()).toBe(r.timestamp);
  });

  it('part 5.6: a partner reads the audit rows of its own keys only, via GET /v1/admin/b2b-keys/:id/audit', async () => {
    await get('/v1/catalog/summary', bearer(w.globex.key));
    const own = await get(`/v1/admin/b2b-keys/${w.acme.keyId}/audit?limit=100`);
    expect(own.res.status).toBe(200);
    expect(own.body.data.length).toBeGreaterThan(0);
    for (const row of own.body.data) {
      expect(row).toMatchObject({ apiKeyId: w.acme.keyId, tenantName: 'acme' });
      expect(Object.keys(row)).toEqual(expect.arrayContaining(['apiKeyId', 'tenantName', 'route', 'status', 'timestamp']));
    }
    const other = await get(`/v1/admin/b2b-keys/${w.globex.keyId}/audit`);
    expect(other.res.status).toBe(404);
    const missing = await get('/v1/admin/b2b-keys/Zz9Zz9Zz/audit');
    expect(other.body.error).toBe(missing.body.error);
    expect(JSON.stringify(other.body)).not.toContain('globex');
  });
});

describe('part 7: errors', () => {
  const challenge = `Bearer realm="${REALM}", scope="v1"`;

  it('part 7: a missing key on a cross-origin request is 401', async () => {
    expect((await get('/v1/catalog/summary', { Origin: 'https://elsewhere.example' })).res.status).toBe(401);
  });

  it('part 7: the 401 carries WWW-Authenticate, an RFC 7235 challenge with scheme Bearer, realm <service_realm> and scope v1', async () => {
    const { res } = await get('/v1/catalog/summary', { Origin: 'https://elsewhere.example' });
    expect(res.headers.get('WWW-Authenticate')).toBe(challenge);
  });

  it('part 7: an invalid key gets the same challenge (API.md decided: with error="invalid_token")', async () => {
    const { res, body } = await get('/v1/catalog/summary', bearer('rxk_ThisKeyWasNeverMintedAnywhere0'));
    expect(res.status).toBe(401);
    expect(res.headers.get('WWW-Authenticate')).toBe(`${challenge}, error="invalid_token"`);
    expect(body.error).toBe('unauthenticated');
  });

  it('part 7: the 401 Content-Type is application/json', async () => {
    const { res } = await get('/v1/catalog/summary', {});
    expect(res.headers.get('Content-Type')).toBe('application/json');
  });

  it('part 7: the 401 body field error is the string unauthenticated', async () => {
    expect((await get('/v1/catalog/summary', {})).body.error).toBe('unauthenticated');
  });

  it('part 7: the 401 body field message says a Bearer key or a logged-in session is needed and that a key can be minted at /v1/admin/b2b-keys', async () => {
    const { message } = (await get('/v1/catalog/summary', {})).body;
    expect(typeof message).toBe('string');
    expect(message).toMatch(/Bearer/);
    expect(message).toMatch(/logged-in session/);
    expect(message).toContain('/v1/admin/b2b-keys');
  });

  it('part 7: the 401 comes before routing, so unknown paths cannot be probed without a key (API.md decided)', async () => {
    const known = await get('/v1/cards/x', {});
    const unknown = await get('/v1/no-such-route', {});
    expect(unknown.res.status).toBe(401);
    expect(unknown.body.error).toBe(known.body.error);
  });
});

describe('part 8: limits', () => {
  it('part 8: the limit parameter of /v1/sets/:game/:setCode has a maximum of 100, enforced server-side', async () => {
    const set = w.catalog.sets.find((s) => s.game === 'mtg')!;
    const { res, body } = await get(`/v1/sets/${set.game}/${set.code}?limit=1000`);
    expect(res.status).toBe(200);
    expect(body.page.limit).toBe(100);
    expect(body.data.length).toBeLessThanOrEqual(100);
    expect(body.warnings.join(' ')).toMatch(/100/);
  });

  it('part 8: the default of limit is 100 on /v1/sets/:game/:setCode (API.md decided)', async () => {
    const { body } = await get(w.routes['/v1/sets/:game/:setCode']);
    expect(body.page.limit).toBe(100);
  });

  it('part 8: read routes send Cache-Control: public, s-maxage=300, stale-while-revalidate=3600', async () => {
    for (const [shape, path] of CATALOG_ROUTES()) {
      expect((await get(path)).res.headers.get('Cache-Control'), shape).toBe(CACHE_DIRECTIVE);
    }
  });

  it('part 8: the audit route and errors are not cached (API.md decided: private, no-store and no-store)', async () => {
    expect((await get(w.routes['/v1/admin/b2b-keys/:id/audit'])).res.headers.get('Cache-Control')).toBe('private, no-store');
    expect((await get('/v1/cards/no-such-card')).res.headers.get('Cache-Control')).toBe('no-store');
  });

  it('part 8: responses may be mirrored at a partner\'s edge: the ETag is the content hash, and If-None-Match gives 304 (API.md decided)', async () => {
    const first = await get('/v1/catalog/summary', bearer(w.acme.key, { 'Accept-Encoding': 'gzip' }));
    const etag = first.res.headers.get('ETag')!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const again = await w.app.request('/v1/catalog/summary', { headers: bearer(w.acme.key, { 'Accept-Encoding': 'gzip', 'If-None-Match': etag }) });
    expect(again.status).toBe(304);
  });

  it('part 8: a card detail payload is about 2-5 KB, depending on range', async () => {
    const priced = new Set(ndjson(join(w.catalog.source, 'prices.ndjson')).filter((p) => p.entity === 'card').map((p) => p.id));
    const ids = ndjson(join(w.catalog.source, 'cards.ndjson')).map((c) => c.id).slice(0, 40);
    for (const range of ['30d', '3mo', '6mo', '12mo', 'all']) {
      const sizes: number[] = [];
      for (const id of ids) {
        const { raw } = await get(`/v1/cards/${id}?range=${range}`);
        // Never above the document's bound, at any range, for any card.
        expect(raw.length, `${id} ${range}`).toBeLessThanOrEqual(5 * 1024);
        if (priced.has(id)) sizes.push(raw.length);
      }
      // A typical priced card (the median: a card added recently has a short history) is 2-5 KB.
      sizes.sort((a, b) => a - b);
      expect(sizes[sizes.length >> 1], range).toBeGreaterThanOrEqual(2000);
    }
  });

  it('part 8: each key belongs to a rate-limit tier and accounting runs on each bearer request, whatever its status', async () => {
    const key = w.keys.mint({ tenant: 'counted', tier: 'free' });
    const remaining: number[] = [];
    for (const path of ['/v1/catalog/summary', '/v1/cards/no-such-card', '/v1/cards/x?range=bad']) {
      const { res } = await get(path, bearer(key.key));
      expect(res.headers.get('RateLimit-Policy')).toBe('"free";q=60;w=60');
      remaining.push(Number(/r=(\d+)/.exec(res.headers.get('RateLimit')!)![1]));
    }
    expect(remaining).toEqual([59, 58, 57]);
  });

  it('part 8: over the tier\'s limit the answer is 429 rate_limited with Retry-After (API.md decided)', async () => {
    const key = w.keys.mint({ tenant: 'limited', tier: 'free' });
    for (let i = 0; i < 60; i++) expect((await get('/v1/catalog/summary', bearer(key.key))).res.status).toBe(200);
    const over = await get('/v1/catalog/summary', bearer(key.key));
    expect(over.res.status).toBe(429);
    expect(over.body.error).toBe('rate_limited');
    expect(Number(over.res.headers.get('Retry-After'))).toBeGreaterThan(0);
  });
});

describe('part 9: versioning', () => {
  it('part 9.1: all partner routes carry the path prefix /v1', async () => {
    const doc = await (await w.app.request('/openapi.json')).json();
    // Outside /v1: the probes, and the API's own description (the document and its reference page).
    const partner = Object.keys(doc.paths).filter((p) => !['/healthz', '/readyz', '/openapi.json', '/docs', '/docs/redoc.standalone.js'].includes(p));
    expect(partner.length).toBeGreaterThanOrEqual(17);
    for (const p of partner) expect(p).toMatch(/^\/v1\//);
    const unprefixed = await get(w.routes['/v1/catalog/summary'].replace('/v1', ''));
    expect(unprefixed.res.status).toBe(404);
  });

  it('part 9.2: the 401 challenge carries scope v1', async () => {
    expect((await get('/v1/catalog/summary', {})).res.headers.get('WWW-Authenticate')).toMatch(/scope="v1"/);
  });

  it('part 9.3: detail responses are wrapped in a versioned envelope (apiVersion v1, an integer schemaVersion)', async () => {
    for (const shape of ['/v1/cards/:id', '/v1/figures/:id', '/v1/oracle/:id', '/v1/catalog/summary']) {
      const { body } = await get(w.routes[shape]);
      expect(body).toMatchObject({ apiVersion: 'v1', schemaVersion: 1 });
    }
  });

  it('part 9.4: self-serve rotation is for v2: there is no partner-callable rotation route in v1', async () => {
    const res = await w.app.request(`/v1/admin/b2b-keys/${w.acme.keyId}/rotate`, { method: 'POST', headers: bearer(w.acme.key) });
    expect(res.status).toBe(403);
  });
});
