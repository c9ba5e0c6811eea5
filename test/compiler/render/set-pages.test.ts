import { describe, expect, it } from 'vitest';
import { compareNatural } from '../../../compiler/render/order.js';
import { renderSetPages } from '../../../compiler/render/set-pages.js';
import { card, price, set, shuffled, syntheticPrice } from './fixtures.js';

describe('natural collector-number order', () => {
  it('when numbers have digits and suffixes then "2" < "10" < "10a" < "11"', () => {
    expect(['10a', '11', '2', '10', '1'].sort(compareNatural)).toEqual(['1', '2', '10', '10a', '11']);
  });

  it('when numbers carry prefixes and leading zeros then digit runs compare as numbers', () => {
    expect(['OP01-010', 'OP01-002', 'OP01-001', 'OP02-001'].sort(compareNatural)).toEqual(['OP01-001', 'OP01-002', 'OP01-010', 'OP02-001']);
    expect(['★12', '12', '★2'].sort(compareNatural)).toEqual(['12', '★2', '★12']);
    expect(['007', '8', '10'].sort(compareNatural)).toEqual(['007', '8', '10']);
  });

  it('when two numbers are equal as numbers but spelled differently then the order is still total', () => {
    expect(compareNatural('01', '1')).not.toBe(0);
    expect(Math.sign(compareNatural('01', '1'))).toBe(-Math.sign(compareNatural('1', '01')));
  });

  it('when numbers exceed 2^53 then they still compare numerically', () => {
    expect(['100000000000000000001', '99999999999999999999'].sort(compareNatural)).toEqual(['99999999999999999999', '100000000000000000001']);
  });
});

describe('renderSetPages', () => {
  const lea = set();

  it('when cards have mixed numbers then items follow natural order, then id', () => {
    const cards = [
      { card: card('c-10a', { number: '10a' }), summary: null },
      { card: card('c-2', { number: '2' }), summary: null },
      { card: card('c-10', { number: '10' }), summary: null },
      { card: card('c-2b', { number: '2' }), summary: null },
    ];
    const [page] = renderSetPages(lea, cards);
    expect(page.data.map((c) => c.id)).toEqual(['c-2', 'c-2b', 'c-10', 'c-10a']);
    expect(page.kind).toBe('set');
  });

  it('when a card has a price then the summary carries marketCents and priceDate, and null otherwise', () => {
    const [page] = renderSetPages(lea, [
      { card: card('a', { number: '1' }), summary: price(1234, 1200, '2026-11-19') },
      { card: card('b', { number: '2', artist: null, imageUrl: null }), summary: null },
    ]);
    expect(page.data[0]).toEqual({
      entity: 'card', id: 'a', game: 'mtg', name: 'Card a', number: '1', rarity: 'common', set: { code: 'lea', name: 'Limited Edition Alpha' },
      artist: 'Rebecca Guay', imageUrl: 'https://img.example/a.jpg', marketCents: 1234, priceDate: '2026-11-19T00:00:00.000Z',
      priceSynthetic: false,
    });
    expect(page.data[1]).toMatchObject({ artist: null, imageUrl: null, marketCents: null, priceDate: null, priceSynthetic: null });
    expect(Object.keys(page.data[1]).sort()).toEqual(Object.keys(page.data[0]).sort());
    // asOf: the latest price date (later than every addedAt and the release).
    expect(page.asOf).toBe('2026-11-19T00:00:00.000Z');
  });

  it('when a price series was made up for a demo then its item says priceSynthetic: true, an observed one false, an unpriced one null', () => {
    const [page] = renderSetPages(lea, [
      { card: card('made-up', { number: '1' }), summary: syntheticPrice(500, 480) },
      { card: card('observed', { number: '2' }), summary: price(500, 480) },
      { card: card('unpriced', { number: '3' }), summary: null },
    ]);
    expect(page.data.map((c) => [c.id, c.marketCents, c.priceSynthetic])).toEqual([['made-up', 500, true], ['observed', 500, false], ['unpriced', null, null]]);
  });

  it('when 250 cards are rendered in any input order then the pages are identical', () => {
    const cards = Array.from({ length: 250 }, (_, i) => ({ card: card(`c${i}`, { number: String(i % 120) }), summary: null }));
    const a = renderSetPages(lea, cards);
    const b = renderSetPages(lea, shuffled(cards, 7));
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(a.map((p) => p.data.length)).toEqual([100, 100, 50]);
    expect(a[2].page).toEqual({ page: 3, limit: 100, total: 250, totalPages: 3, hasMore: false });
  });
});
