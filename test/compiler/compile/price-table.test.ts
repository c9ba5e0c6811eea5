import { describe, expect, it } from 'vitest';
import { cardTableOf } from '../../../compiler/source/card-table.js';
import { createPriceTable } from '../../../compiler/compile/price-table.js';
import { summarizePrices } from '../../../compiler/render/price-summary.js';
import type { LatestPrice } from '../../../compiler/render/types.js';

const latest = (over: Partial<LatestPrice> = {}): LatestPrice => ({
  lastDate: '2026-11-20', lastCents: 1250, previousCents: 1000, velocity24h: 0.25, synthetic: false, ...over,
});

describe('price table', () => {
  it('gives back exactly what was set: nulls, -0, wide cents, synthetic, the same key order as summarizePrices', () => {
    const t = createPriceTable();
    const cases: [string, LatestPrice][] = [
      ['plain', latest()],
      ['no previous', latest({ previousCents: null, velocity24h: null })],
      ['negative zero', latest({ velocity24h: -0 })],
      ['wide', latest({ lastCents: 2 ** 40 + 3, previousCents: 2 ** 33 })],
      ['zero', latest({ lastCents: 0, previousCents: 0, velocity24h: null, synthetic: true })],
      ['other day', latest({ lastDate: '2025-01-02' })],
    ];
    for (const [id, l] of cases) t.set(id, l);
    expect(t.size).toBe(cases.length);
    for (const [id, l] of cases) {
      const got = t.get(id)!;
      expect(got).toEqual(l);
      expect(Object.is(got.velocity24h, l.velocity24h)).toBe(true);
    }
    // The renderers write these fields in the order summarizePrices gives them.
    const { recentDaily: _recent, ...fromSummary } = summarizePrices({ entity: 'card', id: 'x', start: '2026-11-19', usdCents: [100, 120] })!;
    expect(Object.keys(t.get('plain')!)).toEqual(Object.keys(fromSummary));
  });

  it('answers like a map for unknown ids and replaces an entity set twice', () => {
    const t = createPriceTable();
    expect(t.get('missing')).toBeUndefined();
    expect(t.has('missing')).toBe(false);
    t.set('a', latest());
    t.set('a', latest({ lastCents: 7, previousCents: null, velocity24h: null }));
    expect(t.size).toBe(1);
    expect(t.has('a')).toBe(true);
    expect(t.get('a')).toEqual(latest({ lastCents: 7, previousCents: null, velocity24h: null }));
  });

  it('holds each entity\'s line in the same slot: an entity with a line and no price is neither in has nor get nor size', () => {
    const t = createPriceTable();
    const lines = t.lines();
    expect(lines.get('a')).toBeUndefined();
    lines.set('a', 3);
    lines.set('b', 4);
    t.set('a', latest());
    expect(lines.get('a')).toBe(3);
    expect(lines.get('b')).toBe(4);
    expect(t.has('a')).toBe(true);
    expect(t.has('b')).toBe(false);
    expect(t.get('b')).toBeUndefined();
    expect(t.size).toBe(1);
    // A price set first, its line after: the same slot.
    t.set('c', latest({ lastCents: 9 }));
    expect(lines.get('c')).toBeUndefined();
    lines.set('c', 5);
    expect([lines.get('c'), t.get('c')?.lastCents, t.size]).toEqual([5, 9, 2]);
  });

  it('claims a line once: the first claim records it, a later one gives the first line back and records nothing', () => {
    const t = createPriceTable();
    const lines = t.lines();
    t.set('priced', latest());
    expect(lines.claim!('priced', 7)).toBeUndefined();
    expect(lines.claim!('priced', 9)).toBe(7);
    lines.set('b', 4);
    expect(lines.claim!('b', 8)).toBe(4);
    // Across the columns' growth (a claim may make the slot).
    for (let i = 0; i < 5000; i++) expect(lines.claim!(`e${i}`, i + 1)).toBeUndefined();
    for (let i = 0; i < 5000; i += 999) expect([lines.claim!(`e${i}`, 1), lines.get(`e${i}`)]).toEqual([i + 1, i + 1]);
    expect([lines.get('priced'), lines.get('b'), t.get('priced')]).toEqual([7, 4, latest()]);
  });

  it('holds each entity\'s input token in its slot, priced or not, across growth; an entity never seen has none', () => {
    const t = createPriceTable();
    const slot = t.set('priced', latest());
    t.setTokenAt(slot, 'token-priced');
    t.setToken('unpriced', 'token-unpriced');
    for (let i = 0; i < 3000; i++) t.setTokenAt(t.set(`p${i}`, latest({ lastCents: i })), `tp${i}`);
    for (let i = 0; i < 3000; i++) t.setToken(`u${i}`, `tu${i}`);
    t.setToken('priced', 'token-again');
    expect([t.token('priced'), t.token('unpriced'), t.token('p2999'), t.token('u0'), t.token('u2999'), t.token('never')]).toEqual(['token-again', 'token-unpriced', 'tp2999', 'tu0', 'tu2999', undefined]);
    // A token makes no price: the unpriced entity is neither in has nor get nor size.
    expect([t.has('unpriced'), t.get('unpriced'), t.size, t.get('p7')?.lastCents]).toEqual([false, undefined, 3001, 7]);
  });

  it('keeps every entity across its growth', () => {
    const t = createPriceTable();
    const n = 5000;
    for (let i = 0; i < n; i++) {
      t.lines().set(`id${i}`, i + 1);
      if (i % 3 !== 0) t.set(`id${i}`, latest({ lastCents: i, lastDate: `2026-11-${String((i % 28) + 1).padStart(2, '0')}` }));
    }
    expect(t.size).toBe(n - Math.ceil(n / 3));
    for (let i = 0; i < n; i += 97) {
      expect(t.lines().get(`id${i}`)).toBe(i + 1);
      expect(t.get(`id${i}`)).toEqual(i % 3 === 0 ? undefined : latest({ lastCents: i, lastDate: `2026-11-${String((i % 28) + 1).padStart(2, '0')}` }));
    }
  });

  it('reads the prices of a list of ids by position: the same as get and has by id, unknown and unpriced ids included', () => {
    const t = createPriceTable();
    t.lines().set('lined', 1);
    t.set('a', latest());
    t.set('b', latest({ lastCents: 7, previousCents: null, velocity24h: null, synthetic: true }));
    const ids = ['b', 'missing', 'a', 'lined', 'a'];
    const inOrder = t.inOrder!(ids);
    ids.forEach((id, i) => {
      expect(inOrder.get(i), id).toEqual(t.get(id));
      expect(inOrder.has(i), id).toBe(t.has(id));
      expect(inOrder.lastDate!(i), id).toBe(t.get(id)?.lastDate);
    });
    expect(inOrder.get(0)).toEqual(latest({ lastCents: 7, previousCents: null, velocity24h: null, synthetic: true }));
    expect(inOrder.get(ids.length)).toBeUndefined();
  });

  it('made with the catalog\'s order, gives entity i slot i: prices and tokens by position equal those by id, across growth', () => {
    const n = 3000;
    const order = Array.from({ length: n }, (_, i) => `c${i}`);
    const t = createPriceTable(order);
    // Lines, prices and tokens arrive in another order than the catalog's (the price file's).
    for (let i = n - 1; i >= 0; i -= 2) t.lines().set(`c${i}`, n - i);
    for (let i = 0; i < n; i += 3) t.setTokenAt(t.set(`c${i}`, latest({ lastCents: i })), `priced-${i}`);
    for (let i = 1; i < n; i += 3) t.setToken(`c${i}`, `unpriced-${i}`);
    // Given again: the same strings, so each position is compared by identity.
    const inOrder = t.inOrder!(order);
    for (let i = 0; i < n; i++) {
      const id = order[i];
      expect([inOrder.get(i), inOrder.has(i), inOrder.token!(i), inOrder.lastDate!(i)], id).toEqual([t.get(id), t.has(id), t.token(id), t.get(id)?.lastDate]);
    }
    expect([inOrder.token!(0), inOrder.token!(1), inOrder.token!(2), inOrder.get(3)?.lastCents]).toEqual(['priced-0', 'unpriced-1', undefined, 3]);
    // Lines by place: the same as by id; none past the slots.
    for (let i = 0; i < n; i++) expect(t.hasLineAt(i), order[i]).toBe(t.lines().get(order[i]) !== undefined);
    expect([t.hasLineAt(n - 1), t.hasLineAt(n - 2), t.hasLineAt(n), t.hasLineAt(-1)]).toEqual([true, false, false, false]);
    // An entity the catalog lacks gets a slot after the catalog's; another list of ids is looked up by id.
    t.setTokenAt(t.set('stray', latest({ lastCents: 5 })), 'stray-token');
    const other = t.inOrder!(['c3', 'stray', 'never']);
    expect([other.get(0)?.lastCents, other.token!(0), other.get(1)?.lastCents, other.token!(1), other.has(2), other.token!(2)]).toEqual([3, 'priced-3', 5, 'stray-token', false, undefined]);
    // A list as long as the catalog's but not its order is looked up by id too.
    const reversed = [...order].reverse();
    const back = t.inOrder!(reversed);
    expect([back.get(n - 1)?.lastCents, back.token!(n - 1), back.token!(n - 2)]).toEqual([0, 'priced-0', 'unpriced-1']);
  });

  it('made with a card table\'s columns, gives card i slot i with no map of the ids, and reads by position when given them again', () => {
    const n = 3000;
    const ids = Array.from({ length: n }, (_, i) => `c${i}`);
    const cards = cardTableOf(ids.map((id) => ({
      id, game: 'mtg', setCode: 's', name: id, number: '1', rarity: null, artist: null, oracleId: null, imageUrl: null, releasedAt: null, addedAt: '2024-01-01', watchers: 0,
    })));
    const t = createPriceTable(cards);
    for (let i = n - 1; i >= 0; i -= 2) t.lines().set(`c${i}`, n - i);
    for (let i = 0; i < n; i += 3) expect(t.set(`c${i}`, latest({ lastCents: i }))).toBe(i);
    t.setToken('c1', 'unpriced-1');
    const inOrder = t.inOrder!(cards);
    for (let i = 0; i < n; i++) {
      const id = ids[i];
      expect([inOrder.get(i), inOrder.has(i), inOrder.token!(i), t.hasLineAt(i)], id).toEqual([t.get(id), t.has(id), t.token(id), t.lines().get(id) !== undefined]);
    }
    expect([inOrder.token!(1), inOrder.get(3)?.lastCents, t.hasLineAt(n)]).toEqual(['unpriced-1', 3, false]);
    // An id the table lacks gets the slot after the catalog's; a list of ids is looked up by id.
    expect(t.set('stray', latest({ lastCents: 5 }))).toBe(n);
    const other = t.inOrder!(['c3', 'stray', 'never']);
    expect([other.get(0)?.lastCents, other.get(1)?.lastCents, other.has(2)]).toEqual([3, 5, false]);
  });

  it('made with an order that gives an id twice, keeps its first slot and the others in order', () => {
    const t = createPriceTable(['a', 'b', 'a', 'c']);
    t.setTokenAt(t.set('c', latest({ lastCents: 9 })), 'c-token');
    t.setToken('a', 'a-token');
    const inOrder = t.inOrder!(['a', 'b', 'c']);
    expect([inOrder.token!(0), inOrder.token!(1), inOrder.token!(2), inOrder.get(2)?.lastCents]).toEqual(['a-token', undefined, 'c-token', 9]);
    // 'c' is entity 2 of the catalog's order: its line is found by place there.
    t.lines().set('c', 5);
    expect([t.hasLineAt(2), t.hasLineAt(3)]).toEqual([true, false]);
  });
});
