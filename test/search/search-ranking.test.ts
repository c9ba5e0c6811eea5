import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, createFixture, ids, q, search, type Fixture } from './fixture.js';

let fx: Fixture;
let big: Fixture;
beforeAll(() => {
  fx = createFixture();
  // More matches than the counted cap: 1,200 goblins of varied popularity.
  big = createFixture(Array.from({ length: 1200 }, (_, i) => card(`gob-${String(i).padStart(4, '0')}`, 'mtg', `Goblin Raider ${i}`, (i * 7919) % 1201)));
});
afterAll(async () => {
  await fx.cleanup();
  await big.cleanup();
});

describe('GET /v1/search ranking', () => {
  it('ranks by relevance tier first, then popularity: an exact name beats a far more popular partial match', async () => {
    const { body } = await search(fx.app, q('bolt'));
    expect(body.data.map((d) => [d.id, d.match])).toEqual([
      ['mtg-bolt', 'exact'], // popularity 10
      ['fig-bolt', 'nameStart'], // "Bolt the Super Dog", 60
      ['set-mtg-bolt', 'nameStart'], // "Bolt Collection", 5
      ['mtg-lightning-bolt', 'nameWords'], // 500
      ['mtg-boltwing', 'nameStartPrefix'], // 9000: most popular, least relevant name match
      ['mtg-thunderbolt-ring', 'anyField'], // only its set name says Bolt
    ]);
  });

  it('among equally relevant matches the more popular comes first', async () => {
    const { body } = await search(fx.app, q('char'));
    expect(ids(body)).toEqual(['pkm-charizard', 'pkm-charmander', 'fig-chara']);
    expect(new Set(body.data.map((d) => d.match))).toEqual(new Set(['nameStartPrefix']));
  });

  it('a whole word anywhere in the name beats a name that only starts with the prefix', async () => {
    const { body } = await search(fx.app, q('pokemon:charizard'));
    expect(body.data[0]).toMatchObject({ id: 'pkm-charizard', match: 'exact' });
  });
});

describe('GET /v1/search paging', () => {
  it('pages concatenate to the full ranked list, with page blocks and Link headers', async () => {
    const full = ids((await search(fx.app, q('golem') + '&limit=100')).body);
    expect(full).toHaveLength(30);
    const pages: string[] = [];
    for (let page = 1; page <= 5; page++) {
      const { res, body } = await search(fx.app, `${q('golem')}&page=${page}&limit=7`);
      expect(body.page).toEqual({ page, limit: 7, total: 30, totalPages: 5, hasMore: page < 5 });
      pages.push(...ids(body));
      const link = res.headers.get('link');
      if (page === 1) expect(link).toBe('</v1/search?q=golem&page=2&limit=7>; rel="next"');
      if (page === 3) expect(link).toBe('</v1/search?q=golem&page=4&limit=7>; rel="next", </v1/search?q=golem&page=2&limit=7>; rel="prev"');
      if (page === 5) expect(link).toBe('</v1/search?q=golem&page=4&limit=7>; rel="prev"');
    }
    expect(pages).toEqual(full);
  });

  it('pages split across relevance tiers without losing or repeating an item', async () => {
    const full = ids((await search(fx.app, q('bolt'))).body);
    const paged: string[] = [];
    for (let page = 1; page <= 3; page++) paged.push(...ids((await search(fx.app, `${q('bolt')}&page=${page}&limit=2`)).body));
    expect(paged).toEqual(full);
  });

  it('a page past the end is 200 with no data', async () => {
    const { res, body } = await search(fx.app, `${q('golem')}&page=9`);
    expect(res.status).toBe(200);
    expect(body.data).toEqual([]);
    expect(body.page).toMatchObject({ page: 9, total: 30, hasMore: false });
  });

  it('when more than 1000 items match then total is capped at 1000 with a warning and pages stop there', async () => {
    const first = await search(big.app, q('goblin'));
    expect(first.body.page).toEqual({ page: 1, limit: 20, total: 1000, totalPages: 50, hasMore: true });
    expect(first.body.warnings).toEqual(['total capped at 1000']);
    const last = await search(big.app, `${q('goblin')}&page=10&limit=100`);
    expect(last.body.data).toHaveLength(100);
    expect(last.body.page.hasMore).toBe(false);
    expect(last.res.headers.get('link')).toBe('</v1/search?q=goblin&page=9&limit=100>; rel="prev"');
    const beyond = await search(big.app, `${q('goblin')}&page=11&limit=100`);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.page.total).toBe(1000);
  });

  it('reads the whole capped window in popularity order', async () => {
    const all: string[] = [];
    for (let page = 1; page <= 10; page++) all.push(...ids((await search(big.app, `${q('goblin raider')}&page=${page}&limit=100`)).body));
    expect(new Set(all).size).toBe(1000);
    const popularity = (id: string) => (Number(id.slice(4)) * 7919) % 1201;
    const pops = all.map(popularity);
    expect(pops).toEqual([...pops].sort((a, b) => b - a));
    expect(pops[0]).toBe(1200);
  });

  it('no warning when the total is under the cap; the whole word ranks before the prefixes', async () => {
    const { body } = await search(big.app, q('goblin 17'));
    expect(body.warnings).toEqual([]);
    expect(body.page.total).toBe(11); // 17 and 170..179
    expect(body.data[0]).toMatchObject({ id: 'gob-0017', match: 'nameWords' });
    expect(new Set(body.data.slice(1).map((d) => d.match))).toEqual(new Set(['namePrefix']));
  });
});
