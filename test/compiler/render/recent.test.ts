import { describe, expect, it } from 'vitest';
import { FEED_DEPTH } from '../../../snapshots/keys.js';
import { renderRecent } from '../../../compiler/render/recent.js';
import { card, figure, indexOf, price, series, set, syntheticPrice } from './fixtures.js';

describe('renderRecent', () => {
  it('when entries were added on different days then newest come first, ties by id, with addedAt as a timestamp', () => {
    const index = indexOf({
      sets: [set()],
      cards: [card('old', { addedAt: '2026-01-01' }), card('b', { addedAt: '2026-03-01' }), card('a', { addedAt: '2026-03-01' })],
      series: [series('s1')],
      figures: [figure('f', 's1', { addedAt: '2026-02-01' })],
      cardPrices: [['old', price(500, 400, '2026-11-20')]],
    });
    const lists = renderRecent(index);
    const all = lists.find((l) => l.family.kind === 'recent' && l.family.game === 'all')!.pages[0];
    expect(all.data.map((i) => [i.id, i.addedAt])).toEqual([
      ['a', '2026-03-01T00:00:00.000Z'], ['b', '2026-03-01T00:00:00.000Z'], ['f', '2026-02-01T00:00:00.000Z'], ['old', '2026-01-01T00:00:00.000Z'],
    ]);
    // asOf: the latest date shown, here the price date of "old".
    expect(all.asOf).toBe('2026-11-20T00:00:00.000Z');
    const mtg = lists.find((l) => l.family.kind === 'recent' && l.family.game === 'mtg')!.pages[0];
    expect(mtg.data.map((i) => i.id)).toEqual(['a', 'b', 'old']);
    expect(mtg.kind).toBe('recent');
  });

  it('when an entry\'s price was made up for a demo then it says priceSynthetic: true; observed false; unpriced null', () => {
    const index = indexOf({
      sets: [set()],
      cards: [card('made-up', { addedAt: '2026-03-03' }), card('observed', { addedAt: '2026-03-02' }), card('unpriced', { addedAt: '2026-03-01' })],
      series: [series('s1')],
      figures: [figure('fig', 's1', { addedAt: '2026-03-04' })],
      cardPrices: [['made-up', syntheticPrice(500, 400)], ['observed', price(500, 400)]],
      figurePrices: [['fig', syntheticPrice(900, 800)]],
    });
    const all = renderRecent(index).find((l) => l.family.kind === 'recent' && l.family.game === 'all')!.pages[0];
    expect(all.data.map((i) => [i.id, i.marketCents, i.priceSynthetic])).toEqual([
      ['fig', 900, true], ['made-up', 500, true], ['observed', 500, false], ['unpriced', null, null],
    ]);
  });

  it('when more than FEED_DEPTH cards exist then the feed keeps the newest FEED_DEPTH', () => {
    const day = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    const cards = Array.from({ length: FEED_DEPTH + 5 }, (_, i) => card(`c${i}`, { addedAt: day(i) }));
    const all = renderRecent(indexOf({ cards })).find((l) => l.family.kind === 'recent' && l.family.game === 'all')!;
    expect(all.pages.reduce((n, p) => n + p.data.length, 0)).toBe(FEED_DEPTH);
    expect(all.pages[0].data[0].id).toBe(`c${FEED_DEPTH + 4}`);
    expect(all.pages.at(-1)!.data.at(-1)!.id).toBe('c5');
  });
});
