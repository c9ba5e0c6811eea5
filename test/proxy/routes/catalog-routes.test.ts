import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { encodeDocument, sha256Hex } from '../../../snapshots/codec.js';
import { envelope } from '../../../snapshots/envelope.js';
import { createFsSnapshotWriter } from '../../../snapshots/store/fs.js';
import { cardKey, figureKey, listPageKey, summaryKey } from '../../../snapshots/keys.js';
import { createFsSnapshotSource } from '../../../snapshots/store/fs.js';
import { createTestApp, type TestApp } from '../../helpers/server-app.js';
import {
  FIXTURE_ARTIST, FIXTURE_CARD_IDS, FIXTURE_FIGURE_ID, FIXTURE_HANDLE, FIXTURE_ORACLE_ID, FIXTURE_SERIES_ID, writeFixtureSnapshot,
  type FixtureSnapshot,
} from '../../helpers/snapshot-fixture.js';

const CACHE_CONTROL = 'public, s-maxage=300, stale-while-revalidate=3600';

let root: string;
let fixture: FixtureSnapshot;
let t: TestApp;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'catalog-routes-'));
  fixture = await writeFixtureSnapshot(root);
  // An object too big to decode in one call (> 16 KiB gzip): the identity path streams it.
  await createFsSnapshotWriter(root, fixture.id).put(cardKey('big-card', '30d'),
    encodeDocument(envelope('card', '2026-11-20', { id: 'big-card', blob: randomBytes(40_000).toString('hex') })));
  t = await createTestApp({ snapshots: createFsSnapshotSource(root) });
});
afterAll(() => {
  t.close();
  rmSync(root, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) => t.request(path, { headers: { ...t.headers, ...headers } });
const json = async (res: Response) => JSON.parse(await res.text());
const stored = (key: string) => readFileSync(join(fixture.dir, key));

describe('every catalog route answers 200 with its document kind', () => {
  const cases: [string, string][] = [
    [`/v1/cards/${FIXTURE_CARD_IDS[0]}`, 'card'],
    [`/v1/cards/${FIXTURE_CARD_IDS[1]}?range=all`, 'card'],
    [`/v1/figures/${FIXTURE_FIGURE_ID}`, 'figure'],
    [`/v1/figures/series/${FIXTURE_SERIES_ID}`, 'series'],
    [`/v1/oracle/${FIXTURE_ORACLE_ID}`, 'oracle'],
    ['/v1/sets/mtg/lea', 'set'],
    ['/v1/sets/mtg/LEA', 'set'],
    [`/v1/artists/${FIXTURE_ARTIST}`, 'artist'],
    [`/v1/series/${FIXTURE_SERIES_ID}/pull-stats`, 'pullStats'],
    ['/v1/trending', 'trending'],
    ['/v1/trending?game=mtg', 'trending'],
    ['/v1/recent', 'recent'],
    ['/v1/discover/sets', 'discoverSets'],
    ['/v1/discover/users', 'discoverUsers'],
    ['/v1/discover/binders', 'discoverBinders'],
    ['/v1/discover/activity', 'discoverActivity'],
    ['/v1/discover/sparklines', 'discoverSparklines'],
    ['/v1/catalog/summary', 'catalogSummary'],
    [`/v1/u/${FIXTURE_HANDLE}`, 'showcase'],
    [`/v1/u/${FIXTURE_HANDLE}/binders`, 'showcaseBinders'],
  ];
  it.each(cases)('GET %s → kind %s', async (path, kind) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.kind).toBe(kind);
    expect(body.apiVersion).toBe('v1');
    expect(res.headers.get('x-snapshot-id')).toBe(fixture.id);
  });

  it('serves every card range from its own object', async () => {
    for (const range of ['30d', '3mo', '6mo', '12mo', 'all']) {
      const body = await json(await get(`/v1/cards/${FIXTURE_CARD_IDS[2]}?range=${range}`));
      expect(body.data.range).toBe(range);
    }
    expect((await json(await get(`/v1/cards/${FIXTURE_CARD_IDS[2]}`))).data.range).toBe('30d');
  });
});

describe('content coding', () => {
  it('when the client accepts gzip then the stored bytes pass through untouched', async () => {
    const res = await get(`/v1/cards/${FIXTURE_CARD_IDS[0]}`, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const bytes = Buffer.from(await res.arrayBuffer());
    const expected = stored(cardKey(FIXTURE_CARD_IDS[0], '30d'));
    expect(bytes.equals(expected)).toBe(true);
    expect(res.headers.get('content-length')).toBe(String(expected.length));
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('when the client sends no Accept-Encoding then the body is decoded JSON', async () => {
    const res = await get(`/v1/figures/${FIXTURE_FIGURE_ID}`);
    expect(res.headers.get('content-encoding')).toBeNull();
    const text = await res.text();
    expect(text).toBe(gunzipSync(stored(figureKey(FIXTURE_FIGURE_ID))).toString('utf8'));
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
  });

  it('a large object is decoded as a stream for a client without gzip', async () => {
    const res = await get('/v1/cards/big-card');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('content-length')).toBeNull();
    const text = await res.text();
    expect(text).toBe(gunzipSync(stored(cardKey('big-card', '30d'))).toString('utf8'));
    expect(JSON.parse(text).data.blob).toHaveLength(80_000);
    const head = await t.request('/v1/cards/big-card', { method: 'HEAD', headers: t.headers });
    expect(head.status).toBe(200);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('when gzip;q=0 then identity even if * is accepted', async () => {
    const res = await get('/v1/catalog/summary', { 'Accept-Encoding': 'gzip;q=0, *;q=1' });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(JSON.parse(await res.text()).kind).toBe('catalogSummary');
  });

  it('when only * is accepted then gzip', async () => {
    const res = await get('/v1/catalog/summary', { 'Accept-Encoding': '*' });
    expect(res.headers.get('content-encoding')).toBe('gzip');
  });
});

describe('caching headers and validators', () => {
  it('sends Cache-Control, Vary, X-Snapshot-Id, X-Request-Id and the manifest hash as ETag', async () => {
    const res = await get('/v1/catalog/summary', { 'Accept-Encoding': 'gzip' });
    expect(res.headers.get('cache-control')).toBe(CACHE_CONTROL);
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(res.headers.get('x-snapshot-id')).toBe(fixture.id);
    expect(res.headers.get('x-request-id')).toMatch(/[0-9a-f-]{36}/);
    expect(res.headers.get('etag')).toBe(`"${fixture.objects.get(summaryKey())}"`);
  });

  it('gives the decoded representation its own strong ETag', async () => {
    const res = await get('/v1/catalog/summary');
    expect(res.headers.get('etag')).toBe(`"${fixture.objects.get(summaryKey())}-identity"`);
  });

  it.each([
    ['gzip', { 'Accept-Encoding': 'gzip' }],
    ['identity', {}],
  ])('when If-None-Match holds the %s ETag then 304 without a body', async (_name, enc) => {
    const first = await get(`/v1/oracle/${FIXTURE_ORACLE_ID}`, enc as Record<string, string>);
    const etag = first.headers.get('etag')!;
    const res = await get(`/v1/oracle/${FIXTURE_ORACLE_ID}`, { ...(enc as Record<string, string>), 'If-None-Match': `"nope", W/${etag}` });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe('');
    expect(res.headers.get('etag')).toBe(etag);
    expect(res.headers.get('cache-control')).toBe(CACHE_CONTROL);
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
  });

  it('when If-None-Match holds the other coding\'s ETag then 200', async () => {
    const gz = await get(`/v1/oracle/${FIXTURE_ORACLE_ID}`, { 'Accept-Encoding': 'gzip' });
    const res = await get(`/v1/oracle/${FIXTURE_ORACLE_ID}`, { 'If-None-Match': gz.headers.get('etag')! });
    expect(res.status).toBe(200);
  });

  it('when If-None-Match is * then 304', async () => {
    const res = await get(`/v1/oracle/${FIXTURE_ORACLE_ID}`, { 'If-None-Match': '*' });
    expect(res.status).toBe(304);
  });

  it('a re-sliced list page has the ETag of the bytes it sends', async () => {
    const res = await get('/v1/trending', { 'Accept-Encoding': 'gzip' });
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get('etag')).toBe(`"${sha256Hex(bytes)}"`);
    const again = await get('/v1/trending', { 'Accept-Encoding': 'gzip', 'If-None-Match': res.headers.get('etag')! });
    expect(again.status).toBe(304);
  });

  it('HEAD sends the headers of GET without a body', async () => {
    const res = await t.request(`/v1/cards/${FIXTURE_CARD_IDS[0]}`, { method: 'HEAD', headers: { ...t.headers, 'Accept-Encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(stored(cardKey(FIXTURE_CARD_IDS[0], '30d')).length));
    expect(res.headers.get('etag')).toBe(`"${fixture.objects.get(cardKey(FIXTURE_CARD_IDS[0], '30d'))}"`);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('the default page of a limit-100 list is the stored object byte for byte', async () => {
    const res = await get('/v1/sets/mtg/lea?page=2', { 'Accept-Encoding': 'gzip' });
    const bytes = Buffer.from(await res.arrayBuffer());
    const key = listPageKey({ kind: 'set', game: 'mtg', code: 'lea' }, 2);
    expect(bytes.equals(stored(key))).toBe(true);
    expect(res.headers.get('etag')).toBe(`"${fixture.objects.get(key)}"`);
  });
});

describe('through the gate and the audit', () => {
  it('without a key a catalog route is 401, but the public showcase answers', async () => {
    const denied = await t.request('/v1/catalog/summary');
    expect(denied.status).toBe(401);
    const showcase = await t.request(`/v1/u/${FIXTURE_HANDLE}`);
    expect(showcase.status).toBe(200);
    expect(JSON.parse(await showcase.text()).kind).toBe('showcase');
    expect((await t.request('/v1/u/bob')).status).toBe(404);
  });

  it('the audit row names the route pattern and the snapshot that answered', async () => {
    const res = await get(`/v1/sets/mtg/lea?limit=7`);
    const requestId = res.headers.get('x-request-id');
    const row = t.state.sqlite.prepare('SELECT route, status, snapshot_id FROM audit_log WHERE request_id = ?').get(requestId) as
      { route: string; status: number; snapshot_id: string };
    expect(row).toEqual({ route: '/v1/sets/:game/:setCode', status: 200, snapshot_id: fixture.id });
    const bad = await get('/v1/discover/users?limit=0');
    const badRow = t.state.sqlite.prepare('SELECT route, status FROM audit_log WHERE request_id = ?').get(bad.headers.get('x-request-id'));
    expect(badRow).toEqual({ route: '/v1/discover/users', status: 400 });
    const unknownFeed = await get('/v1/discover/nope');
    const feedRow = t.state.sqlite.prepare('SELECT route, status FROM audit_log WHERE request_id = ?').get(unknownFeed.headers.get('x-request-id'));
    expect(feedRow).toEqual({ route: '/v1/discover/:feed', status: 400 });
  });
});
