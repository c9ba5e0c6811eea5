import { describe, expect, it } from 'vitest';
import { renderDiscoverBinders } from '../../../compiler/render/discover-binders.js';
import { renderDiscoverSets } from '../../../compiler/render/discover-sets.js';
import { cardsBySet } from '../../../compiler/render/summaries.js';
import { createSparklinePoints, renderDiscoverSparklines, sparklineKey, SPARKLINE_COUNT } from '../../../compiler/render/discover-sparklines.js';
import { renderDiscoverUsers } from '../../../compiler/render/discover-users.js';
import { binder, card, figure, indexOf, price, series, set, shuffled, syntheticPrice, user } from './fixtures.js';
import { sampleCatalog } from './sample-catalog.js';

describe('renderDiscoverSets', () => {
  it('when sets have cards and prices then each set lists its counts, newest release first', () => {
    const c = sampleCatalog();
    const feed = renderDiscoverSets(indexOf(c.input));
    expect(feed.family).toEqual({ kind: 'discover', feed: 'sets' });
    expect(feed.pages[0].data).toEqual([
      { game: 'lorcana', code: 'tfc', name: 'The First Chapter', series: null, releasedAt: '2023-08-18T00:00:00.000Z', cardCount: 1, pricedCount: 1 },
      { game: 'pokemon', code: 'base1', name: 'Base Set', series: 'Base', releasedAt: '1999-01-09T00:00:00.000Z', cardCount: 1, pricedCount: 1 },
      { game: 'mtg', code: 'lea', name: 'Limited Edition Alpha', series: 'Core', releasedAt: '1993-08-05T00:00:00.000Z', cardCount: 4, pricedCount: 2 },
    ]);
    expect(feed.pages[0].asOf).toBe('2026-11-20T00:00:00.000Z');
  });
});

describe('cards by set', () => {
  it('when a set\'s cards are not listed together and two games share a set code then each set has its own cards\' positions, in catalog order, and the feed counts them', () => {
    const cards = [
      card('a1'), card('a2'),
      card('p1', { game: 'pokemon', setCode: 'lea' }),
      card('b1', { setCode: 'leb' }),
      card('a3'),
      card('p2', { game: 'pokemon', setCode: 'lea' }),
    ];
    const index = indexOf({
      sets: [set(), set({ code: 'leb', name: 'Beta', releasedAt: '1993-10-04' }), set({ game: 'pokemon', code: 'lea', name: 'Not Alpha', releasedAt: '2000-01-01' })],
      cards,
      cardPrices: [['a3', price(100, null, '2026-11-19')], ['p2', price(200, 150, '2026-11-18')]],
    });
    expect([...cardsBySet(index)]).toEqual([['mtg/lea', [0, 1, 4]], ['pokemon/lea', [2, 5]], ['mtg/leb', [3]]]);
    // Made once per index.
    expect(cardsBySet(index)).toBe(cardsBySet(index));
    const [page] = renderDiscoverSets(index).pages;
    expect(page.data.map((s) => [s.game, s.code, s.cardCount, s.pricedCount])).toEqual([['pokemon', 'lea', 2, 1], ['mtg', 'leb', 1, 0], ['mtg', 'lea', 3, 1]]);
    expect(page.asOf).toBe('2026-11-19T00:00:00.000Z');
  });
});

describe('renderDiscoverUsers', () => {
  it('when public users have binders then each shows public binder and item counts, newest first', () => {
    const users = [user('old', { joinedAt: '2025-01-01T00:00:00.000Z' }), user('new', { joinedAt: '2026-01-01T00:00:00.000Z' })];
    const binders = [
      binder('b1', 'old', { items: [{ entity: 'card', id: 'x' }, { entity: 'card', id: 'y' }] }),
      binder('b2', 'old', { items: [{ entity: 'card', id: 'z' }] }),
      binder('b3', 'old', { public: false, items: [{ entity: 'card', id: 'z' }] }),
    ];
    const [page] = renderDiscoverUsers(users, binders).pages;
    expect(page.data).toEqual([
      { handle: 'new', displayName: 'Name new', joinedAt: '2026-01-01T00:00:00.000Z', publicBinders: 0, items: 0 },
      { handle: 'old', displayName: 'Name old', joinedAt: '2025-01-01T00:00:00.000Z', publicBinders: 2, items: 3 },
    ]);
    expect(page.kind).toBe('discoverUsers');
  });
});

describe('renderDiscoverBinders', () => {
  it('when a binder holds unknown items then the preview skips them and keeps the first 4 known ones', () => {
    const c = sampleCatalog();
    const [page] = renderDiscoverBinders(c.users, c.binders, indexOf(c.input)).pages;
    expect(page.data.map((b) => b.id)).toEqual(['binder-alice-1', 'binder-bob-1']);
    const alice = page.data[0];
    expect(alice).toMatchObject({ name: 'Alice Binder', owner: { handle: 'alice', displayName: 'Alice A' }, itemCount: 6, updatedAt: '2026-11-02T00:00:00.000Z' });
    expect(alice.preview.map((p) => `${p.entity}:${p.id}`)).toEqual(['card:lea-1', 'figure:f-b', 'card:base1-4', 'card:lea-2']);
    expect(alice.preview[0]).toMatchObject({ marketCents: 25000, set: { code: 'lea', name: 'Limited Edition Alpha' } });
    // lea-2 has no price.
    expect(alice.preview.map((p) => p.priceSynthetic)).toEqual([false, false, false, null]);
  });

  it('when a previewed entry\'s price was made up for a demo then the preview says priceSynthetic: true', () => {
    const index = indexOf({
      sets: [set()], cards: [card('made-up'), card('observed')], series: [series('s')], figures: [figure('fig', 's')],
      cardPrices: [['made-up', syntheticPrice(100, 90)], ['observed', price(100, 90)]], figurePrices: [['fig', syntheticPrice(300, 200)]],
    });
    const items = [{ entity: 'card' as const, id: 'observed' }, { entity: 'card' as const, id: 'made-up' }, { entity: 'figure' as const, id: 'fig' }];
    const [page] = renderDiscoverBinders([user('u')], [binder('b', 'u', { items })], index).pages;
    expect(page.data[0].preview.map((p) => [p.id, p.priceSynthetic])).toEqual([['observed', false], ['made-up', true], ['fig', true]]);
  });
});

describe('renderDiscoverSparklines', () => {
  it('when entries have prices then the most watched come first with 30 daily points, unpriced ones left out', () => {
    const index = indexOf({
      sets: [set()],
      cards: [card('hot', { watchers: 10 }), card('tie-b', { watchers: 5 }), card('tie-a', { watchers: 5 }), card('unpriced', { watchers: 1000 })],
      series: [series('s')],
      figures: [figure('fig', 's', { watchers: 7 })],
      cardPrices: [['hot', price(100, 90)], ['tie-b', price(100, 90)], ['tie-a', price(100, null, '2026-11-21')]],
      figurePrices: [['fig', price(500, 400)]],
    });
    const feed = renderDiscoverSparklines(index);
    const items = feed.pages[0].data;
    expect(items.map((i) => [i.id, i.watchers])).toEqual([['hot', 10], ['fig', 7], ['tie-a', 5], ['tie-b', 5]]);
    expect(items[0].from).toBe('2026-10-22T00:00:00.000Z'); // 29 days before 2026-11-20
    expect(items[0].points).toHaveLength(30);
    expect(items[0].points.slice(-2)).toEqual([90, 100]);
    expect(feed.pages[0].asOf).toBe('2026-11-21T00:00:00.000Z');
  });

  it('when a series was made up for a demo then its sparkline says priceSynthetic: true, an observed one false', () => {
    const index = indexOf({
      sets: [set()],
      cards: [card('made-up', { watchers: 9 }), card('observed', { watchers: 8 })],
      series: [series('s')],
      figures: [figure('fig', 's', { watchers: 7 })],
      cardPrices: [['made-up', syntheticPrice(100, 90)], ['observed', price(100, 90)]],
      figurePrices: [['fig', syntheticPrice(500, 400)]],
    });
    const items = renderDiscoverSparklines(index).pages[0].data;
    expect(items.map((i) => [i.id, i.priceSynthetic])).toEqual([['made-up', true], ['observed', false], ['fig', true]]);
  });

  it('when more than SPARKLINE_COUNT entries are priced then only the top ones are kept', () => {
    const cards = Array.from({ length: SPARKLINE_COUNT + 10 }, (_, i) => card(`c${i}`, { watchers: i }));
    const feed = renderDiscoverSparklines(indexOf({ cards, cardPrices: cards.map((c) => [c.id, price(100, 100)]) }));
    expect(feed.pages[0].data).toHaveLength(SPARKLINE_COUNT);
    expect(feed.pages[0].data.at(-1)!.id).toBe('c10');
  });

  it('when entities are offered as the price file streams, in any order, then the points kept are those of the feed, with their own days', () => {
    // Ties on watchers (broken by id, then entity: a card and a figure share an id) and more
    // candidates than the feed shows; offered in a shuffled order.
    const cards = Array.from({ length: 120 }, (_, i) => card(`e${i % 90}`, { watchers: i % 7 }));
    const unique = [...new Map(cards.map((c) => [c.id, c])).values()];
    const figures = Array.from({ length: 30 }, (_, i) => figure(`e${i}`, { watchers: (i * 3) % 7 }));
    const pricesOf = (n: number) => price(1000 + n, 900 + n);
    const cardPrices = unique.map((c, n): [string, ReturnType<typeof price>] => [c.id, pricesOf(n)]);
    const figurePrices = figures.map((f, n): [string, ReturnType<typeof price>] => [f.id, pricesOf(500 + n)]);
    const index = indexOf({ cards: unique, figures, cardPrices, figurePrices });
    const feed = renderDiscoverSparklines(index).pages[0].data;
    expect(feed).toHaveLength(SPARKLINE_COUNT);
    const offered = [...cardPrices.map(([id, p]) => ['card', id, p] as const), ...figurePrices.map(([id, p]) => ['figure', id, p] as const)];
    for (const seed of [1, 2, 3]) {
      const kept = createSparklinePoints();
      for (const [entity, id, p] of shuffled(offered, seed)) kept.offer(entity, id, (entity === 'card' ? unique : figures).find((r) => r.id === id)!.watchers, p.recentDaily);
      const points = kept.points();
      expect([...points.keys()].sort()).toEqual(feed.map((item) => sparklineKey(item.entity, item.id)).sort());
      for (const item of feed) expect(points.get(sparklineKey(item.entity, item.id))).toEqual(item.points);
    }
  });

  it('when the points of an entity the feed shows were not kept then rendering fails as an internal error', () => {
    const cards = [card('c1', { watchers: 5 })];
    const index = { ...indexOf({ cards, cardPrices: [['c1', price(100, 90)]] }), sparklinePoints: new Map() };
    expect(() => renderDiscoverSparklines(index)).toThrow(expect.objectContaining({ code: 'internal' }));
  });
});
