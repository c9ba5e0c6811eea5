/**
 * `/v1/sets/:game/:setCode`: the cards of one set in collector-number order, as stored pages.
 */
import type { Envelope } from '../../snapshots/envelope.js';
import type { SetRecord } from '../../snapshots/records.js';
import { laterOf } from './as-of.js';
import { compareNaturalKeys, compareText, naturalKey } from './order.js';
import { paginate } from './paginate.js';
import { cardSummary, type CardSummary, type PricedCard } from './summaries.js';

/** A set's cards in page order, and the asOf every page of the set carries. */
export interface OrderedSet<T extends PricedCard = PricedCard> {
  cards: T[];
  asOf: string | null;
}

/**
 * Items sorted by collector number in natural order ("2" < "10" < "10a"), then id.
 * asOf: the latest of the set's release, the cards' addedAt and their price dates.
 */
export function orderSetCards<T extends PricedCard>(set: SetRecord, cards: readonly T[]): OrderedSet<T> {
  const keyed = cards.map((c) => ({ c, key: naturalKey(c.card.number) }));
  keyed.sort((x, y) => compareNaturalKeys(x.key, y.key) || compareText(x.c.card.id, y.c.card.id));
  let asOf: string | null = set.releasedAt;
  for (const { c } of keyed) asOf = laterOf(laterOf(asOf, c.card.addedAt), c.summary?.lastDate);
  return { cards: keyed.map(({ c }) => c), asOf };
}

/** The pages of a set already put in order (orderSetCards). */
export function renderOrderedSetPages(set: SetRecord, ordered: OrderedSet): Envelope<CardSummary[]>[] {
  return paginate('set', ordered.cards.map((c) => cardSummary(c.card, set, c.summary)), ordered.asOf);
}

export function renderSetPages(set: SetRecord, cards: PricedCard[]): Envelope<CardSummary[]>[] {
  return renderOrderedSetPages(set, orderSetCards(set, cards));
}
