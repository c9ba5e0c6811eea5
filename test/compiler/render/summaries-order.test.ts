import { describe, expect, it } from 'vitest';
import { cardSummary, figureSummary } from '../../../compiler/render/summaries.js';
import { KEYS_IN_ORDER, stableJson } from '../../../snapshots/codec.js';
import { card, figure, price, series, set, syntheticPrice } from './fixtures.js';

/** Every object in `value` with its own keys in sorted order, none integer-like. */
function keysInOrder(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (Array.isArray(value)) return value.every(keysInOrder);
  const keys = Object.keys(value);
  const sorted = [...keys].sort();
  return keys.every((k, i) => k === sorted[i] && !/^\d/.test(k)) && Object.values(value).every(keysInOrder);
}

/** A copy of `value` made of plain objects: stableJson checks and sorts its keys itself. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const summaries = () => [
  cardSummary(card('c1', { artist: null, rarity: null, imageUrl: null }), set(), price(120, 100)),
  cardSummary(card('c2'), null, null),
  cardSummary(card('c3'), set({ name: 'Ünïcode "quoted" \\ name' }), syntheticPrice(5, null)),
  figureSummary(figure('f1', 's1'), series('s1'), price(900, 950)),
  figureSummary(figure('f2', 's1', { rarity: null }), undefined, null),
];

describe('list summaries marked as built in key order', () => {
  it('when a card or figure summary is made then its keys are in sorted order at every depth, as its mark promises', () => {
    for (const s of summaries()) {
      expect((s as unknown as Record<symbol, unknown>)[KEYS_IN_ORDER]).toBe(true);
      expect(keysInOrder(s)).toBe(true);
    }
  });

  it('when stableJson takes a summary as it is then it writes what it writes for the same value as plain objects', () => {
    const all = summaries();
    for (const s of all) expect(stableJson(s)).toBe(stableJson(plain(s)));
    // Inside a page envelope, as the set and artist pages have them.
    const page = { meta: { total: all.length, page: 1 }, data: all, asOf: '2026-11-20' };
    expect(stableJson(page)).toBe(stableJson(plain(page)));
  });

  it('when a summary is spread into another object then the copy is not marked and its keys are put in order', () => {
    const moved = { ...cardSummary(card('c1'), set(), price(120, 100)), changeCents: 20, aaa: 1 };
    expect((moved as Record<symbol, unknown>)[KEYS_IN_ORDER]).toBeUndefined();
    expect(stableJson(moved).startsWith('{"aaa":1,"artist":')).toBe(true);
    expect(stableJson(moved)).toBe(stableJson(plain(moved)));
  });

  it('when a summary is compared with an object literal then only its keys and values count', () => {
    expect(cardSummary(card('c2'), null, null)).toEqual({
      artist: 'Rebecca Guay', entity: 'card', game: 'mtg', id: 'c2', imageUrl: 'https://img.example/c2.jpg', marketCents: null,
      name: 'Card c2', number: '1', priceDate: null, priceSynthetic: null, rarity: 'common', set: { code: 'lea', name: null },
    });
  });
});
