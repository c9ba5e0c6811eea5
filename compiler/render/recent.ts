/**
 * `/v1/recent?game=`: the newest additions to the catalog, one feed per game (its cards) and `all`
 * (every card and figure).
 */
import { toTimestamp } from '../../snapshots/envelope.js';
import { FEED_DEPTH } from '../../snapshots/keys.js';
import { GAMES, type Game } from '../../snapshots/records.js';
import { laterOf } from './as-of.js';
import { compareDesc, compareText, createTopK } from './order.js';
import { paginate, type RenderedList } from './paginate.js';
import { summarizeCard, summarizeFigure, type CatalogIndex, type EntitySummary } from './summaries.js';
import { cardColumns } from '../source/card-table.js';

export type RecentItem = EntitySummary & { addedAt: string };

interface Candidate {
  entity: 'card' | 'figure';
  id: string;
  addedAt: string;
  build: () => EntitySummary;
}

/** addedAt desc, then id, then entity (a card and a figure may share an id). */
function compareCandidates(a: Candidate, b: Candidate): number {
  return compareDesc(a.addedAt, b.addedAt) || compareText(a.id, b.id) || compareText(a.entity, b.entity);
}

/** asOf: the latest addedAt or price date among the items shown. */
function feed(game: Game | 'all', top: TopCandidates): RenderedList<RecentItem> {
  let asOf: string | null = null;
  const items = top.sorted().map((c): RecentItem => {
    const summary = c.build();
    asOf = laterOf(laterOf(asOf, c.addedAt), summary.priceDate);
    return { ...summary, addedAt: toTimestamp(c.addedAt) };
  });
  return { family: { kind: 'recent', game }, pages: paginate('recent', items, asOf) };
}

/** The five recent feeds: one per game, then `all`. */
type TopCandidates = ReturnType<typeof createTopK<Candidate>>;

export function renderRecent(index: CatalogIndex): RenderedList<RecentItem>[] {
  const top = () => createTopK(FEED_DEPTH, compareCandidates);
  const byGame = new Map<Game, TopCandidates>(GAMES.map((g) => [g, top()]));
  const all = top();
  // The columns: no record is made but for the cards shown (source/card-table.ts).
  const cards = cardColumns(index.cards);
  for (let i = 0; i < cards.length; i++) {
    const c: Candidate = { entity: 'card', id: cards.id(i), addedAt: cards.addedAt(i), build: () => summarizeCard(cards.record(i), index) };
    byGame.get(cards.game(i))?.offer(c);
    all.offer(c);
  }
  for (const figure of index.figures.values()) {
    all.offer({ entity: 'figure', id: figure.id, addedAt: figure.addedAt, build: () => summarizeFigure(figure, index) });
  }
  return [...GAMES.map((g) => feed(g, byGame.get(g)!)), feed('all', all)];
}
