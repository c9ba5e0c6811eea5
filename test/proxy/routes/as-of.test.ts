/**
 * As-of reads (issue 20): `snapshot=<id>` on every catalog route, GET /v1/snapshots and the Atom
 * feed, through the real app over real compiled snapshots (three compiles of one generated catalog,
 * the prices changed between them) and real SQLite.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFeed } from '@rowanmanning/feed-parser';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsSnapshotSource } from '../../../snapshots/store/fs.js';
import { readCurrentId } from '../../../snapshots/store/pointer.js';
import { catalogTable } from '../../../proxy/route-table/catalog-table.js';
import { Snapshot } from '../../../proxy/route-table/params.js';
import { touchOnePercent } from '../../../scripts/lib/touch-prices.mjs';
import { compiledCatalog, type CompiledCatalog } from '../../helpers/compiled-catalog.js';
import { runCli } from '../../helpers/cli.js';
import { createTestApp, type TestApp } from '../../helpers/server-app.js';

let cat: CompiledCatalog;
let t: TestApp;
let first: string;
let second: string;
/** What each path answered while `first` was current. */
const before = new Map<string, { body: string; etag: string | null }>();

const compileAgain = async (...extra: string[]) => {
  await touchOnePercent(cat.source);
  const r = await runCli(['compile', '--source', cat.source, '--out', cat.root, '--workers', '1', ...extra]);
  if (r.code !== 0) throw new Error(r.stderr);
  return (await readCurrentId(cat.root))!;
};

function paths(): string[] {
  const oracleId = (JSON.parse(readFileSync(join(cat.source, 'cards.ndjson'), 'utf8').split('\n').find((l) => l.includes('"oracleId"'))!) as { oracleId: string }).oracleId;
  const cardId = (JSON.parse(readFileSync(join(cat.source, 'prices.ndjson'), 'utf8').split('\n')[0]) as { id: string }).id;
  const shown = cat.users.find((u) => u.showcase && u.handle)!.handle!;
  const set = cat.sets[0];
  const word = (JSON.parse(readFileSync(join(cat.source, 'cards.ndjson'), 'utf8').split('\n')[0]) as { name: string }).name.split(' ')[0];
  return [
    `/v1/cards/${cardId}?range=30d`, `/v1/figures/${cat.figureIds[0]}`, `/v1/figures/series/${cat.seriesIds[0]}?limit=3`,
    `/v1/oracle/${oracleId}`, `/v1/sets/${set.game}/${set.code}?limit=2&page=2`, `/v1/series/${cat.seriesIds[0]}/pull-stats`,
    '/v1/catalog/summary', '/v1/trending?limit=5', '/v1/recent', '/v1/discover/sets?limit=3', `/v1/search?q=${encodeURIComponent(word)}&limit=3`, `/v1/trending?limit=5&fields=id,marketCents`,
    `/v1/u/${shown}`, `/v1/u/${shown}/binders`,
  ];
}

const withSnapshot = (path: string, id: string) => `${path}${path.includes('?') ? '&' : '?'}snapshot=${id}`;

beforeAll(async () => {
  cat = await compiledCatalog(80);
  first = (await readCurrentId(cat.root))!;
  t = await createTestApp({ snapshots: createFsSnapshotSource(cat.root) });
  for (const path of paths()) {
    const res = await t.request(path, { headers: { ...t.headers, 'Accept-Encoding': 'gzip' } });
    expect(res.status, path).toBe(200);
    expect(res.headers.get('content-length'), path).not.toBe('0');
    before.set(path, { body: Buffer.from(await res.arrayBuffer()).toString('base64'), etag: res.headers.get('etag') });
  }
  second = await compileAgain();
  // The pointer is re-read every 250 ms.
  await new Promise((r) => setTimeout(r, 300));
}, 120_000);

afterAll(() => t?.close());

describe('snapshot=<id> on every catalog route', () => {
  it('every catalog route of the table declares the snapshot parameter', () => {
    for (const route of catalogTable()) expect(Object.values(route.params), route.path).toContain(Snapshot);
  });

  it('answers from the kept snapshot with its own X-Snapshot-Id, the same bytes and the same ETag as when it was current; 304 with that ETag', async () => {
    let differs = 0;
    for (const [path, was] of before) {
      const now = await t.request(path, { headers: { ...t.headers, 'Accept-Encoding': 'gzip' } });
      expect(now.headers.get('x-snapshot-id'), path).toBe(second);
      if (now.headers.get('etag') !== was.etag) differs++;
      const res = await t.request(withSnapshot(path, first), { headers: { ...t.headers, 'Accept-Encoding': 'gzip' } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('x-snapshot-id'), path).toBe(first);
      expect(res.headers.get('etag'), path).toBe(was.etag);
      expect(Buffer.from(await res.arrayBuffer()).toString('base64'), path).toBe(was.body);
      const again = await t.request(withSnapshot(path, first), { headers: { ...t.headers, 'Accept-Encoding': 'gzip', 'If-None-Match': was.etag! } });
      expect(again.status, path).toBe(304);
    }
    // The prices changed: some answers of the current snapshot differ, so the pin is what kept them.
    expect(differs).toBeGreaterThan(0);
  });

  it('a malformed id is 400 naming snapshot, an unknown or pruned one 410 gone', async () => {
    const bad = await t.request('/v1/catalog/summary?snapshot=../../etc', { headers: t.headers });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: 'invalid_parameter' });
    const unknown = await t.request('/v1/search?q=a&snapshot=20200101T000000Z-00000000', { headers: t.headers });
    expect(unknown.status).toBe(410);
    expect(await unknown.json()).toMatchObject({ error: 'gone' });
  });
});

describe('GET /v1/snapshots and GET /v1/snapshot/feed', () => {
  it('lists the kept snapshots newest first, paged, with counts', async () => {
    const res = await t.request('/v1/snapshots', { headers: t.headers });
    expect(res.status).toBe(200);
    const body = await res.json() as { kind: string; data: { snapshotId: string; previous: string | null; counts: { cards: number }; changes: { changed: number }; url: string }[]; page: { total: number } };
    expect(body.kind).toBe('snapshots');
    expect(body.data.map((s) => s.snapshotId)).toEqual([second, first]);
    expect(body.data[0]).toMatchObject({ previous: first, counts: { cards: 80 }, url: `/v1/snapshot?snapshot=${second}` });
    expect(body.data[0].changes.changed).toBeGreaterThan(0);
    expect(body.page.total).toBe(2);
    const p2 = await t.request('/v1/snapshots?limit=1&page=2', { headers: t.headers });
    expect((await p2.json() as { data: { snapshotId: string }[] }).data.map((s) => s.snapshotId)).toEqual([first]);
    expect(p2.headers.get('link')).toBe('</v1/snapshots?limit=1&page=1>; rel="prev"');
    expect((await t.request('/v1/snapshots')).status).toBe(401);
  });

  it('serves an Atom feed a real feed parser reads: one entry per kept snapshot with its links; ETag and 304; a bearer key needed', async () => {
    const res = await t.request('/v1/snapshot/feed', { headers: t.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const xml = await res.text();
    expect(XMLValidator.validate(xml)).toBe(true);
    const feed = parseFeed(xml);
    expect(feed.meta.type).toBe('atom');
    expect(feed.items.map((i) => i.id)).toEqual([`urn:catalog-snapshots:${second}`, `urn:catalog-snapshots:${first}`]);
    const newest = feed.items[0];
    expect(newest.published?.toISOString()).toBe(`${second.slice(0, 4)}-${second.slice(4, 6)}-${second.slice(6, 8)}T${second.slice(9, 11)}:${second.slice(11, 13)}:${second.slice(13, 15)}.000Z`);
    expect(newest.description).toMatch(/^80 cards, \d+ figures, \d+ sets, \d+ oracle concepts; \d+ objects: 0 new, \d+ changed/);
    expect(JSON.parse(newest.content!)).toMatchObject({ snapshotId: second, previous: first });
    const links = xml.split('<entry>')[1];
    expect(links).toContain(`href="/v1/snapshot?snapshot=${second}"`);
    expect(links).toContain(`href="/v1/snapshot/changes?since=${first}&amp;snapshot=${second}"`);
    // The oldest kept snapshot has nothing to compare with.
    expect(xml.split('<entry>')[2]).not.toContain('/v1/snapshot/changes');
    // The links answer.
    expect((await t.request(`/v1/snapshot/changes?since=${first}&snapshot=${second}`, { headers: t.headers })).status).toBe(200);

    const etag = res.headers.get('etag')!;
    expect((await t.request('/v1/snapshot/feed', { headers: { ...t.headers, 'If-None-Match': etag } })).status).toBe(304);
    expect((await t.request('/v1/snapshot/feed')).status).toBe(401);
  });

  it('after a publish and a prune: the feed changes (new ETag), the pruned snapshot is gone from it and 410 on every route', async () => {
    const etag = (await t.request('/v1/snapshot/feed', { headers: t.headers })).headers.get('etag')!;
    const third = await compileAgain('--keep', '2');
    await new Promise((r) => setTimeout(r, 300));
    const res = await t.request('/v1/snapshot/feed', { headers: { ...t.headers, 'If-None-Match': etag } });
    expect(res.status).toBe(200);
    const feed = parseFeed(await res.text());
    expect(feed.items.map((i) => i.id)).toEqual([third, second].map((id) => `urn:catalog-snapshots:${id}`));
    for (const path of before.keys()) {
      const gone = await t.request(withSnapshot(path, first), { headers: t.headers });
      expect(gone.status, path).toBe(410);
    }
  }, 60_000);
});
