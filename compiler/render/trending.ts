/**
 * `/v1/trending?game=`: cards and figures ranked by 24-hour price velocity (API.md §3),
 * one feed per game (its cards) and `all` (every card and figure).
 */
import { GAMES, type Game } from '../../snapshots/records.js';
import { FEED_DEPTH } from '../../snapshots/keys.js';
import { laterOf } from './as-of.js';
import { compareText, createTopK } from './order.js';
import { paginate, type RenderedList } from './paginate.js';
import { catalogInOrder, summarizeCard, summarizeFigure, type CatalogIndex, type EntitySummary } from './summaries.js';
import type { LatestPrice } from './types.js';

/**
 * Entries whose price 24 h ago was under $1 are left out: a 1-cent card going to 2 cents is +100 %
 * and would lead the feed with a move nobody cares about.
 */
export const PRICE_FLOOR_CENTS = 100;

export type TrendingItem = EntitySummary & { previousCents: number; changeCents: number; velocity24h: number };

interface Candidate {
  entity: 'card' | 'figure';
  id: string;
  velocity: number;
  build: () => TrendingItem;
}

/** Velocity desc, then id, then entity (a card and a figure may share an id). */
function compareCandidates(a: Candidate, b: Candidate): number {
  return b.velocity - a.velocity || compareText(a.id, b.id) || compareText(a.entity, b.entity);
}

function qualifies(price: LatestPrice | undefined): price is LatestPrice & { previousCents: number; velocity24h: number } {
  return price !== undefined && price.previousCents !== null && price.previousCents >= PRICE_FLOOR_CENTS && price.velocity24h !== null;
}

function withMove(summary: EntitySummary, price: LatestPrice & { previousCents: number; velocity24h: number }): TrendingItem {
  return { ...summary, previousCents: price.previousCents, changeCents: price.lastCents - price.previousCents, velocity24h: price.velocity24h };
}

/**
 * asOf of a feed: the latest price date among the entries it considered (all priced entries of
 * that game), so an empty feed still says when it was empty.
 */
function feed(game: Game | 'all', top: TopCandidates, asOf: string | null): RenderedList<TrendingItem> {
  const items = top.sorted().map((c) => c.build());
  return { family: { kind: 'trending', game }, pages: paginate('trending', items, asOf) };
}

type TopCandidates = ReturnType<typeof createTopK<Candidate>>;

/** The five trending feeds: one per game, then `all`. */
export function renderTrending(index: CatalogIndex): RenderedList<TrendingItem>[] {
  const top = () => createTopK(FEED_DEPTH, compareCandidates);
  const byGame = new Map<Game, TopCandidates>(GAMES.map((g) => [g, top()]));
  const asOfByGame = new Map<Game, string | null>();
  const all = top();
  let asOfAll: string | null = null;
  const { cards, cardPrices, figures, figurePrices } = catalogInOrder(index);
  for (let i = 0; i < cards.length; i++) {
    const price = cardPrices.get(i);
    if (price === undefined) continue;
    const game = cards.game(i);
    asOfByGame.set(game, laterOf(asOfByGame.get(game) ?? null, price.lastDate));
    asOfAll = laterOf(asOfAll, price.lastDate);
    if (!qualifies(price)) continue;
    const c: Candidate = { entity: 'card', id: cards.id(i), velocity: price.velocity24h, build: () => withMove(summarizeCard(cards.record(i), index), price) };
    byGame.get(game)?.offer(c);
    all.offer(c);
  }
  for (let i = 0; i < figures.length; i++) {
    const figure = figures[i];
    const price = figurePrices.get(i);
    if (price === undefined) continue;
    asOfAll = laterOf(asOfAll, price.lastDate);
    if (!qualifies(price)) continue;
    all.offer({ entity: 'figure', id: figure.id, velocity: price.velocity24h, build: () => withMove(summarizeFigure(figure, index), price) });
  }
  return [
    ...GAMES.map((g) => feed(g, byGame.get(g)!, asOfByGame.get(g) ?? null)),
    feed('all', all, asOfAll),
  ];
}
