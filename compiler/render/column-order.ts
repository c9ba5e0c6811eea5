/**
 * The set pages' and artist pages' orders (set-pages.ts orderSetCards, artist-pages.ts
 * orderArtistCards) of cards given as positions in the catalog's card columns (source/card-table.ts),
 * so that the compile orders a set or an artist without making a record of every card in it: a 1%
 * price change touches nearly every set and many artists, and making their million records to read
 * a number, a date and an id was most of those pages' cost at a million cards (docs/benchmarks.md).
 * The orders are the same, item for item (test/compiler/render/column-order.test.ts).
 *
 * @example
 *   const ordered = orderSetPositions(columns, positions);   // positions in collector-number order
 */
import type { CardColumns } from '../source/card-table.js';
import { compareDescNullsLast, compareNaturalKeys, naturalKey, type NaturalKey } from './order.js';

/** `positions` in orderSetCards' order: collector number in natural order, then id. */
export function orderSetPositions(columns: CardColumns, positions: readonly number[]): number[] {
  // One key per distinct number (a set repeats few), not one per card.
  const keys = new Map<string, NaturalKey>();
  const keyed = positions.map((at) => {
    const number = columns.number(at);
    let key = keys.get(number);
    if (key === undefined) keys.set(number, (key = naturalKey(number)));
    return { at, key };
  });
  keyed.sort((x, y) => compareNaturalKeys(x.key, y.key) || columns.compareIds(x.at, y.at));
  return keyed.map((k) => k.at);
}

/** `positions` in orderArtistCards' order: the newest release first (unknown last), then id. */
export function orderArtistPositions(columns: CardColumns, positions: readonly number[]): number[] {
  return [...positions].sort((x, y) => compareDescNullsLast(columns.releasedAt(x), columns.releasedAt(y)) || columns.compareIds(x, y));
}
