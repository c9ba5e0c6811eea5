import { describe, expect, it } from 'vitest';
import { cardColumns, cardTableOf } from '../../../compiler/source/card-table.js';
import { orderArtistPositions, orderSetPositions } from '../../../compiler/render/column-order.js';
import { orderSetCards } from '../../../compiler/render/set-pages.js';
import { orderArtistCards } from '../../../compiler/render/artist-pages.js';
import type { CardRecord, SetRecord } from '../../../snapshots/records.js';

/** A small deterministic generator (no Math.random: a failure must repeat). */
function numbers(seed: number) {
  let x = seed;
  return (n: number) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x % n;
  };
}

const NUMBERS = ['1', '2', '10', '10a', '007', '7', 'OP01-001', 'OP01-010', '★12', '12', 'a', 'A', 'S1', '100'];
const DATES = [null, '1993-08-05', '2024-01-02', '2024-01-10', '1999-01-09'];

function cards(count: number, seed: number): CardRecord[] {
  const pick = numbers(seed);
  // Ids that tie on number and date, in an order that is not the catalog's.
  return Array.from({ length: count }, (_, i) => ({
    id: `mtg-${['zz', 'a', 'm', 'B'][pick(4)]}-${pick(1000)}-${i}`, game: 'mtg', setCode: 's1', name: `Card ${i}`,
    number: NUMBERS[pick(NUMBERS.length)], rarity: null, artist: 'One Artist', oracleId: null, imageUrl: null,
    releasedAt: DATES[pick(DATES.length)], addedAt: '2024-01-02', watchers: i,
  })) as CardRecord[];
}

const set: SetRecord = { game: 'mtg', code: 's1', name: 'Set One', releasedAt: '2024-01-01' } as SetRecord;

describe('orders from the card columns', () => {
  for (const [label, make] of [['a card table', cardTableOf], ['a map of records', (r: CardRecord[]) => new Map(r.map((c) => [c.id, c]))]] as const) {
    it(`put ${label}'s cards in the set pages' and the artist pages' order, item for item`, () => {
      for (const seed of [1, 2, 3]) {
        const records = cards(400, seed);
        const columns = cardColumns(make(records));
        // A group is some positions of the catalog, in the catalog's order.
        const positions = records.map((_, i) => i).filter((i) => i % 3 !== seed % 3);
        const priced = positions.map((i) => ({ card: records[i], summary: null, at: i }));
        expect(orderSetPositions(columns, positions)).toEqual(orderSetCards(set, priced).cards.map((p) => p.at));
        expect(orderArtistPositions(columns, positions)).toEqual(orderArtistCards(priced).cards.map((p) => p.at));
      }
    });
  }

  it('compare ids by code unit, as compareText does', () => {
    const records = cards(3, 9).map((c, i) => ({ ...c, id: ['mtg-b-1', 'mtg-B-1', 'mtg-b-10'][i] }));
    const table = cardTableOf(records);
    expect(Math.sign(table.compareIds(0, 1))).toBe(1);
    expect(Math.sign(table.compareIds(0, 2))).toBe(-1);
    expect(table.compareIds(2, 2)).toBe(0);
  });
});
