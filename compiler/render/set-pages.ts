/**
 * `/v1/sets/:game/:setCode`: the cards of one set in collector-number order, as stored pages.
 */
import type { Envelope } from '../../snapshots/envelope.js';
import type { SetRecord } from '../../snapshots/records.js';
import { laterOf } from './as-of.js';
import { compareNaturalKeys, compareText, naturalKey } from './order.js';
import { paginate } from './paginate.js';
import { cardSummary, type CardSummary, type PricedCard } from './summaries.js';

/**
 * Items sorted by collector number in natural order ("2" < "10" < "10a"), then id.
 * asOf: the latest of the set's release, the cards' addedAt and their price dates.
 */
export function renderSetPages(set: SetRecord, cards: PricedCard[]): Envelope<CardSummary[]>[] {
  const keyed = cards.map((c) => ({ c, key: naturalKey(c.card.number) }));
  keyed.sort((x, y) => compareNaturalKeys(x.key, y.key) || compareText(x.c.card.id, y.c.card.id));
  let asOf: string | null = set.releasedAt;
  const items = keyed.map(({ c }) => {
    asOf = laterOf(laterOf(asOf, c.card.addedAt), c.summary?.lastDate);
    return cardSummary(c.card, set, c.summary);
  });
  return paginate('set', items, asOf);
}
