/**
 * The set and artist pages' canonical text written directly (render/list-json.ts) must be exactly
 * stableJson of the object pages (set-pages.ts, artist-pages.ts), byte for byte: every ETag depends
 * on it. Compared on edge cases, on lists of several pages, and on random cards.
 */
import { describe, expect, it } from 'vitest';
import { cardPagesJson, cardSummaryJson, CanonicalJson } from '../../../compiler/render/list-json.js';
import { orderSetCards, renderOrderedSetPages } from '../../../compiler/render/set-pages.js';
import { orderArtistPrintings, renderArtistPages } from '../../../compiler/render/artist-pages.js';
import { cardSummary, setMapKey, type PricedCard } from '../../../compiler/render/summaries.js';
import { stableJson } from '../../../snapshots/codec.js';
import type { CardRecord, SetRecord } from '../../../snapshots/records.js';
import { card, price, set, syntheticPrice } from './fixtures.js';

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s ^ (s >>> 15), 1 | s) + 0x6d2b79f5) >>> 0) / 2 ** 32);
}

const texts = (pages: CanonicalJson[] | null) => {
  expect(pages).not.toBeNull();
  return pages!.map((p) => p.json);
};

function expectSameSetPages(s: SetRecord, cards: PricedCard[]): void {
  const ordered = orderSetCards(s, cards);
  expect(texts(cardPagesJson('set', ordered.cards, () => s, ordered.asOf))).toEqual(renderOrderedSetPages(s, ordered).map((p) => stableJson(p)));
}

function expectSameArtistPages(cards: PricedCard[], sets: Map<string, SetRecord>): void {
  const ordered = orderArtistPrintings(cards);
  const setOf = (c: CardRecord) => sets.get(setMapKey(c.game, c.setCode));
  expect(texts(cardPagesJson('artist', ordered.cards, setOf, ordered.asOf))).toEqual(renderArtistPages('a', 'A', cards, sets).map((p) => stableJson(p)));
}

const odd: PricedCard[] = [
  { card: card('mtg-lea-1', { name: 'Æther "Quoted" \\ back\u2028slash', artist: null, imageUrl: null }), summary: null },
  { card: card('mtg-lea-2', { name: 'Łódź \u{1F409} dragon', number: '2a', rarity: null }), summary: price(1999, 1500) },
  { card: card('mtg-lea-3', { name: 'Zero', number: '10' }), summary: syntheticPrice(0, null, '2026-12-31') },
  { card: card('mtg-lea-4', { name: 'Line\nbreak\ttab', number: '3', addedAt: '2027-01-05' }), summary: price(-5, 0) },
];

describe('card list pages written directly', () => {
  it('equal stableJson of the object pages for odd values: nulls, quotes, escapes, astral characters, synthetic and zero prices', () => {
    expectSameSetPages(set(), odd);
    expectSameSetPages(set({ name: null as unknown as string, releasedAt: null as unknown as string }), odd);
    expectSameArtistPages(odd, new Map([[setMapKey('mtg', 'lea'), set()]]));
    // A card whose set the map lacks shows a null set name, as cardSummary does.
    expectSameArtistPages(odd, new Map());
    expect(cardSummaryJson(odd[1].card, set(), odd[1].summary)).toBe(stableJson(cardSummary(odd[1].card, set(), odd[1].summary)));
  });

  it('equal them for an empty list (one page with no items) and lists of one, exactly 100, 101 and 250 cards', () => {
    for (const n of [0, 1, 100, 101, 250]) {
      const cards = Array.from({ length: n }, (_, i) => ({ card: card(`mtg-lea-${i}`, { number: String(n - i) }), summary: i % 3 === 0 ? null : price(100 + i, 90) }));
      expectSameSetPages(set(), cards);
      expectSameArtistPages(cards, new Map([[setMapKey('mtg', 'lea'), set()]]));
      expect(texts(cardPagesJson('set', cards, () => set(), null)).length).toBe(Math.max(1, Math.ceil(n / 100)));
    }
  });

  it('equal them for random cards across games and sets', () => {
    const random = prng(17);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
    const sets = new Map<string, SetRecord>();
    for (const game of ['mtg', 'pokemon', 'lorcana'] as const) for (const code of ['a1', 'b2']) sets.set(setMapKey(game, code), set({ game, code, name: `${game} ${code} é` }));
    const chars = ['a', 'Z', ' ', 'é', 'ß', '"', '\\', '\u0000', '\u007f', '\u00ff', '\u0141', '\u4e2d', '\u{1F600}', '\ud800'];
    const text = () => Array.from({ length: 1 + Math.floor(random() * 12) }, () => pick(chars)).join('');
    const cards: PricedCard[] = Array.from({ length: 320 }, (_, i) => {
      const game = pick(['mtg', 'pokemon', 'lorcana'] as const);
      const c = card(`${game}-x-${i}`, {
        game, setCode: pick(['a1', 'b2', 'zz']), name: text(), number: String(Math.floor(random() * 400)), rarity: random() < 0.2 ? null : text(),
        artist: random() < 0.2 ? null : text(), imageUrl: random() < 0.2 ? null : `https://img.example/${text()}`,
        releasedAt: random() < 0.2 ? null : '2020-01-0' + (1 + Math.floor(random() * 9)), addedAt: '2025-0' + (1 + Math.floor(random() * 9)) + '-01',
      });
      const r = random();
      const summary = r < 0.3 ? null : r < 0.4 ? syntheticPrice(Math.floor(random() * 1e6), null) : price(Math.floor(random() * 1e6) / (random() < 0.1 ? 7 : 1), random() < 0.5 ? null : 1000, '2026-11-' + (10 + Math.floor(random() * 20)));
      return { card: c, summary };
    });
    for (const s of sets.values()) expectSameSetPages(s, cards.filter((p) => p.card.game === s.game && p.card.setCode === s.code));
    expectSameArtistPages(cards, sets);
  });

  it('is null for a value of a type the records do not allow, so the caller renders the objects', () => {
    const bad = card('mtg-lea-9', { name: 42 as unknown as string });
    expect(cardPagesJson('set', [{ card: bad, summary: null }], () => set(), null)).toBeNull();
  });
});
