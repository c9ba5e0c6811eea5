/**
 * `/v1/discover/sparklines`: the most-watched priced cards and figures with their last 30 daily
 * prices, for small charts.
 *
 * Only these 50 need their recent days, and which 50 they are follows from the records (watchers,
 * id) and from being priced at all: the compile offers every priced entity's days to
 * `createSparklinePoints` as the price file streams past and keeps the best 50 in the feed's own
 * order, instead of 30 days for every entity until the aggregates.
 */
import { dayNumber, dayTimestamp } from '../../snapshots/dates.js';
import { toTimestamp } from '../../snapshots/envelope.js';
import { laterOf } from './as-of.js';
import { compareText, createTopK } from './order.js';
import { paginate, type RenderedList } from './paginate.js';
import { catalogInOrder, summarizeCard, summarizeFigure, type CatalogIndex, type EntitySummary } from './summaries.js';
import { CatalogError } from '../../snapshots/errors.js';
import type { LatestPrice } from './types.js';

export const SPARKLINE_COUNT = 50;

export type SparklineItem = EntitySummary & {
  watchers: number;
  /** Day of points[0]. */
  from: string;
  /** Daily USD cents, oldest first, ending at priceDate; null where the day has no price. */
  points: (number | null)[];
};

/** What decides a place in the feed. */
export interface SparklineCandidate {
  entity: 'card' | 'figure';
  id: string;
  watchers: number;
}

interface Candidate extends SparklineCandidate {
  price: LatestPrice;
  build: () => EntitySummary;
}

/** The feed's order: watchers desc, then id, then entity. */
const sparklineOrder = (a: SparklineCandidate, b: SparklineCandidate) => b.watchers - a.watchers || compareText(a.id, b.id) || compareText(a.entity, b.entity);

export const sparklineKey = (entity: 'card' | 'figure', id: string) => `${entity}:${id}`;

/**
 * The recent days of the SPARKLINE_COUNT best candidates offered so far, in the feed's order: what
 * CatalogIndex.sparklinePoints holds once every priced entity was offered once.
 */
export function createSparklinePoints(): {
  offer(entity: 'card' | 'figure', id: string, watchers: number, points: readonly (number | null)[]): void;
  /** Whether an offer of this entity now would be kept: when not, its recent days need not be made. */
  admits(entity: 'card' | 'figure', id: string, watchers: number): boolean;
  points(): Map<string, readonly (number | null)[]>;
} {
  const top = createTopK<SparklineCandidate & { points: readonly (number | null)[] }>(SPARKLINE_COUNT, sparklineOrder);
  // One candidate re-used to ask (a million entities are asked about, fifty kept).
  const probe: SparklineCandidate & { points: readonly (number | null)[] } = { entity: 'card', id: '', watchers: 0, points: [] };
  return {
    offer: (entity, id, watchers, points) => top.offer({ entity, id, watchers, points }),
    admits(entity, id, watchers) {
      probe.entity = entity;
      probe.id = id;
      probe.watchers = watchers;
      return top.admits(probe);
    },
    points: () => new Map(top.sorted().map((k) => [sparklineKey(k.entity, k.id), k.points])),
  };
}

function firstDay(price: LatestPrice, points: readonly (number | null)[]): string {
  return dayTimestamp(dayNumber(price.lastDate) - (points.length - 1));
}

/** Watchers desc, then id, then entity. asOf: the latest price date shown. */
export function renderDiscoverSparklines(index: CatalogIndex): RenderedList<SparklineItem> {
  const top = createTopK<Candidate>(SPARKLINE_COUNT, sparklineOrder);
  const { cards, cardPrices, figures, figurePrices } = catalogInOrder(index);
  for (let i = 0; i < cards.length; i++) {
    const price = cardPrices.get(i);
    if (price) top.offer({ entity: 'card', id: cards.id(i), watchers: cards.watchers(i), price, build: () => summarizeCard(cards.record(i), index) });
  }
  for (let i = 0; i < figures.length; i++) {
    const figure = figures[i];
    const price = figurePrices.get(i);
    if (price) top.offer({ entity: 'figure', id: figure.id, watchers: figure.watchers, price, build: () => summarizeFigure(figure, index) });
  }
  let asOf: string | null = null;
  const items = top.sorted().map((c): SparklineItem => {
    asOf = laterOf(asOf, c.price.lastDate);
    const points = index.sparklinePoints.get(sparklineKey(c.entity, c.id));
    // Kept by the compile for exactly these entities (createSparklinePoints, same order).
    if (points === undefined) throw new CatalogError('internal', `the recent prices of ${c.entity} ${c.id}, shown in the sparklines feed, were not kept`);
    return { ...c.build(), watchers: c.watchers, from: firstDay(c.price, points), points: [...points] };
  });
  return { family: { kind: 'discover', feed: 'sparklines' }, pages: paginate('discoverSparklines', items, asOf) };
}
