import { describe, expect, it } from 'vitest';
import { FEED_DEPTH } from '../../../snapshots/keys.js';
import { PRICE_FLOOR_CENTS, renderTrending } from '../../../compiler/render/trending.js';
import { card, figure, indexOf, price, series, set, syntheticPrice } from './fixtures.js';

const feedOf = (lists: ReturnType<typeof renderTrending>, game: string) => lists.find((l) => l.family.kind === 'trending' && l.family.game === game)!;

describe('renderTrending', () => {
  it('when entries sit under the $1 floor or lack a previous price then they are left out', () => {
    expect(PRICE_FLOOR_CENTS).toBe(100);
    const index = indexOf({
      sets: [set()],
      cards: [card('penny'), card('at-floor'), card('no-prev'), card('zero-prev')],
      cardPrices: [
        ['penny', price(2, 1)], // +100 % but 1 cent
        ['at-floor', price(150, 100)], // exactly $1: kept
        ['no-prev', price(500, null)],
        ['zero-prev', price(500, 0)],
      ],
    });
    const all = feedOf(renderTrending(index), 'all').pages[0];
    expect(all.data.map((i) => i.id)).toEqual(['at-floor']);
    expect(all.data[0]).toMatchObject({ previousCents: 100, changeCents: 50, velocity24h: 0.5, marketCents: 150 });
  });

  it('when velocities tie then id breaks the tie; falls rank last', () => {
    const index = indexOf({
      sets: [set()],
      cards: [card('b'), card('a'), card('up'), card('down')],
      cardPrices: [['b', price(200, 100)], ['a', price(400, 200)], ['up', price(300, 100)], ['down', price(100, 200)]],
    });
    const items = feedOf(renderTrending(index), 'mtg').pages[0].data;
    expect(items.map((i) => [i.id, i.velocity24h])).toEqual([['up', 2], ['a', 1], ['b', 1], ['down', -0.5]]);
  });

  it('when cards of several games and figures move then per-game feeds hold their cards and `all` holds everything', () => {
    const index = indexOf({
      sets: [set(), set({ game: 'pokemon', code: 'base1', name: 'Base Set' })],
      cards: [card('m1'), card('p1', { game: 'pokemon', setCode: 'base1' })],
      series: [series('s1')],
      figures: [figure('f1', 's1')],
      cardPrices: [['m1', price(110, 100)], ['p1', price(120, 100, '2026-11-21')]],
      figurePrices: [['f1', price(130, 100)]],
    });
    const lists = renderTrending(index);
    expect(lists.map((l) => (l.family as { game: string }).game)).toEqual(['mtg', 'pokemon', 'lorcana', 'onepiece', 'all']);
    expect(feedOf(lists, 'mtg').pages[0].data.map((i) => i.id)).toEqual(['m1']);
    expect(feedOf(lists, 'pokemon').pages[0].data[0]).toMatchObject({ id: 'p1', set: { code: 'base1', name: 'Base Set' } });
    expect(feedOf(lists, 'lorcana').pages[0]).toMatchObject({ data: [], asOf: null, page: { total: 0, totalPages: 1 } });
    const all = feedOf(lists, 'all').pages[0];
    expect(all.data.map((i) => `${i.entity}:${i.id}`)).toEqual(['figure:f1', 'card:p1', 'card:m1']);
    expect(all.asOf).toBe('2026-11-21T00:00:00.000Z');
    expect(all.data[0]).toMatchObject({ entity: 'figure', series: { id: 's1', name: 'Series s1' }, velocity24h: 0.3 });
  });

  it('when a moving price was made up for a demo then its item says priceSynthetic: true, an observed one false', () => {
    const index = indexOf({
      sets: [set()],
      cards: [card('made-up'), card('observed')],
      series: [series('s1')],
      figures: [figure('made-up-fig', 's1')],
      cardPrices: [['made-up', syntheticPrice(300, 100)], ['observed', price(200, 100)]],
      figurePrices: [['made-up-fig', syntheticPrice(150, 100)]],
    });
    const all = feedOf(renderTrending(index), 'all').pages[0].data;
    expect(all.map((i) => [`${i.entity}:${i.id}`, i.priceSynthetic])).toEqual([
      ['card:made-up', true], ['card:observed', false], ['figure:made-up-fig', true],
    ]);
  });

  it('when more than FEED_DEPTH entries qualify then only the top FEED_DEPTH are kept, in pages of 100', () => {
    const cards = Array.from({ length: FEED_DEPTH + 20 }, (_, i) => card(`c${String(i).padStart(4, '0')}`));
    const index = indexOf({ sets: [set()], cards, cardPrices: cards.map((c, i) => [c.id, price(1000 + i, 1000)]) });
    const feed = feedOf(renderTrending(index), 'all');
    expect(feed.pages).toHaveLength(5);
    expect(feed.pages[0].page).toEqual({ page: 1, limit: 100, total: FEED_DEPTH, totalPages: 5, hasMore: true });
    // The fastest (highest index) first; the 20 slowest are cut.
    expect(feed.pages[0].data[0].id).toBe(`c${String(FEED_DEPTH + 19).padStart(4, '0')}`);
    expect(feed.pages[4].data[99].id).toBe('c0020');
  });
});
