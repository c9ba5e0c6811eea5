import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsSnapshotSource } from '../../../snapshots/store/fs.js';
import { createTestApp, type TestApp } from '../../helpers/server-app.js';
import { countingSource, type CountingSource } from '../../helpers/snapshot-fixture-sources.js';
import { FIXTURE_CARD_IDS, writeFixtureSnapshot } from '../../helpers/snapshot-fixture.js';

let root: string;
let counting: CountingSource;
let t: TestApp;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'catalog-validation-'));
  await writeFixtureSnapshot(root);
  counting = countingSource(createFsSnapshotSource(root));
  t = await createTestApp({ snapshots: counting.source });
});
afterAll(() => {
  t.close();
  rmSync(root, { recursive: true, force: true });
});

const call = async (path: string) => {
  const res = await t.request(path, { headers: t.headers });
  return { res, doc: JSON.parse(await res.text()) };
};

describe('parameters are checked before the store is touched', () => {
  it.each([
    ['/v1/cards/a%2Fb', 'id'],
    ['/v1/cards/..%2F..%2Fetc', 'id'],
    [`/v1/cards/${'x'.repeat(129)}`, 'id'],
    ['/v1/cards/-leading-dash', 'id'],
    ['/v1/cards/%00', 'id'],
    ['/v1/figures/a%2F..', 'id'],
    ['/v1/oracle/%2e%2e%2fx', 'id'],
    ['/v1/figures/series/a%5Cb', 'id'],
    ['/v1/series/a%2Fb/pull-stats', 'id'],
    ['/v1/sets/yugioh/lea', 'game'],
    ['/v1/sets/mtg/le_a', 'setCode'],
    ['/v1/sets/mtg/..%2F..', 'setCode'],
    ['/v1/artists/Rebecca-Guay', 'slug'],
    ['/v1/u/al%2Fice', 'handle'],
    ['/v1/u/-x/binders', 'handle'],
    ['/v1/discover/secrets', 'feed'],
    [`/v1/cards/${FIXTURE_CARD_IDS[0]}?range=2y`, 'range'],
    [`/v1/cards/${FIXTURE_CARD_IDS[0]}?range=30d&range=all`, 'range'],
    [`/v1/cards/${FIXTURE_CARD_IDS[0]}?foo=1`, 'foo'],
    ['/v1/catalog/summary?page=2', 'page'],
    ['/v1/trending?game=chess', 'game'],
    ['/v1/recent?gmae=mtg', 'gmae'],
  ])('%s → 400 naming %s, no store access', async (path, parameter) => {
    const before = counting.touches();
    const { res, doc } = await call(path);
    expect(res.status).toBe(400);
    expect(doc).toMatchObject({ error: 'invalid_parameter' });
    expect(doc.message).toContain(parameter);
    expect(typeof doc.requestId).toBe('string');
    expect(counting.touches()).toBe(before);
  });

  it('dot segments are resolved by URL parsing before routing, so they never reach a store key', async () => {
    // WHATWG URL parsing turns /v1/cards/.. and /v1/cards/%2e%2e into /v1/ before the app sees them.
    for (const path of ['/v1/cards/..', '/v1/cards/%2e%2e', '/v1/cards/.']) {
      const before = counting.touches();
      const { res } = await call(path);
      expect([400, 404], path).toContain(res.status);
      expect(counting.touches(), path).toBe(before);
    }
    expect(counting.keysRead.every((key) => !key.includes('..'))).toBe(true);
  });
});

describe('unknown ids', () => {
  it.each([
    '/v1/cards/mtg-lea-9999',
    '/v1/cards/mtg-lea-9999?range=all',
    '/v1/figures/nope',
    '/v1/oracle/nope',
    '/v1/series/nope/pull-stats',
    '/v1/u/bob',
  ])('%s → 404 not_found', async (path) => {
    const { res, doc } = await call(path);
    expect(res.status).toBe(404);
    expect(doc.error).toBe('not_found');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('a miss is not cached: the next request for it reads the store again', async () => {
    const key = 'v1/cards/mtg-lea-9998/30d.json.gz';
    const reads = () => counting.keysRead.filter((k) => k === key).length;
    expect((await call('/v1/cards/mtg-lea-9998')).res.status).toBe(404);
    expect(reads()).toBe(1);
    expect((await call('/v1/cards/mtg-lea-9998')).res.status).toBe(404);
    expect(reads()).toBe(2);
  });
});
