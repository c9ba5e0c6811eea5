/**
 * `/v1/discover/sets`: every set of every game, newest release first, with its size and how many
 * of its cards have a price.
 */
import { toTimestampOrNull } from '../../snapshots/envelope.js';
import type { Game } from '../../snapshots/records.js';
import { laterOf } from './as-of.js';
import { compareDescNullsLast, compareText } from './order.js';
import { paginate, type RenderedList } from './paginate.js';
import { cardsBySet, catalogInOrder, setMapKey, type CatalogIndex } from './summaries.js';

export interface DiscoverSetItem {
  game: Game;
  code: string;
  name: string;
  series: string | null;
  releasedAt: string | null;
  cardCount: number;
  pricedCount: number;
}

/**
 * Sorted by release date desc (unknown dates last), then game, then code. asOf: the latest of the releases and of the
 * price dates behind `pricedCount`.
 */
export function renderDiscoverSets(index: CatalogIndex): RenderedList<DiscoverSetItem> {
  const counts = new Map<string, { cards: number; priced: number }>();
  let asOf: string | null = null;
  const { cardPrices } = catalogInOrder(index);
  // The day alone, not a LatestPrice per card (a million of them at a million cards).
  const lastDate = cardPrices.lastDate ?? ((i: number) => cardPrices.get(i)?.lastDate);
  for (const [key, positions] of cardsBySet(index)) {
    let priced = 0;
    for (const i of positions) {
      const day = lastDate(i);
      if (day === undefined) continue;
      priced++;
      asOf = laterOf(asOf, day);
    }
    counts.set(key, { cards: positions.length, priced });
  }
  const sets = [...index.sets.values()].sort(
    (a, b) => compareDescNullsLast(a.releasedAt, b.releasedAt) || compareText(a.game, b.game) || compareText(a.code, b.code),
  );
  const items = sets.map((s): DiscoverSetItem => {
    asOf = laterOf(asOf, s.releasedAt);
    const c = counts.get(setMapKey(s.game, s.code));
    return {
      game: s.game, code: s.code, name: s.name, series: s.series, releasedAt: toTimestampOrNull(s.releasedAt),
      cardCount: c?.cards ?? 0, pricedCount: c?.priced ?? 0,
    };
  });
  return { family: { kind: 'discover', feed: 'sets' }, pages: paginate('discoverSets', items, asOf) };
}
