/**
 * `/v1/discover/sparklines`: the most-watched priced cards and figures with their last 30 daily
 * prices, for small charts.
 */
import { dayNumber, dayTimestamp } from '../../snapshots/dates.js';
import { toTimestamp } from '../../snapshots/envelope.js';
import { laterOf } from './as-of.js';
import { compareText, topK } from './order.js';
import { paginate, type RenderedList } from './paginate.js';
import { summarizeCard, summarizeFigure, type CatalogIndex, type EntitySummary } from './summaries.js';
import type { PriceSummary } from './types.js';

export const SPARKLINE_COUNT = 50;

export type SparklineItem = EntitySummary & {
  watchers: number;
  /** Day of points[0]. */
  from: string;
  /** Daily USD cents, oldest first, ending at priceDate; null where the day has no price. */
  points: (number | null)[];
};

interface Candidate {
  entity: 'card' | 'figure';
  id: string;
  watchers: number;
  price: PriceSummary;
  build: () => EntitySummary;
}

function firstDay(price: PriceSummary): string {
  const offset = price.recentDaily.length - 1;
  return dayTimestamp(dayNumber(price.lastDate) - offset);
}

/** Watchers desc, then id, then entity. asOf: the latest price date shown. */
export function renderDiscoverSparklines(index: CatalogIndex): RenderedList<SparklineItem> {
  const candidates: Candidate[] = [];
  for (const card of index.cards.values()) {
    const price = index.prices.card.get(card.id);
    if (price) candidates.push({ entity: 'card', id: card.id, watchers: card.watchers, price, build: () => summarizeCard(card, index) });
  }
  for (const figure of index.figures.values()) {
    const price = index.prices.figure.get(figure.id);
    if (price) candidates.push({ entity: 'figure', id: figure.id, watchers: figure.watchers, price, build: () => summarizeFigure(figure, index) });
  }
  const top = topK(candidates, SPARKLINE_COUNT, (a, b) => b.watchers - a.watchers || compareText(a.id, b.id) || compareText(a.entity, b.entity));
  let asOf: string | null = null;
  const items = top.map((c): SparklineItem => {
    asOf = laterOf(asOf, c.price.lastDate);
    return { ...c.build(), watchers: c.watchers, from: firstDay(c.price), points: [...c.price.recentDaily] };
  });
  return { family: { kind: 'discover', feed: 'sparklines' }, pages: paginate('discoverSparklines', items, asOf) };
}
