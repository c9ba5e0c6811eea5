/**
 * `/v1/discover/sets`: every set of every game, newest release first, with its size and how many
 * of its cards have a price.
 */
import { toTimestampOrNull } from '../../snapshots/envelope.js';
import type { Game } from '../../snapshots/records.js';
import { laterOf } from './as-of.js';
import { compareDescNullsLast, compareText } from './order.js';
import { paginate, type RenderedList } from './paginate.js';
import { catalogInOrder, setMapKey, type CatalogIndex } from './summaries.js';

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
  const { cards, cardPrices } = catalogInOrder(index);
  for (let i = 0; i < cards.length; i++) {
    const card = cards[i];
    const key = setMapKey(card.game, card.setCode);
    let c = counts.get(key);
    if (!c) counts.set(key, (c = { cards: 0, priced: 0 }));
    c.cards++;
    const price = cardPrices.get(i);
    if (price) {
      c.priced++;
      asOf = laterOf(asOf, price.lastDate);
    }
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
