/**
 * `/v1/catalog/summary`: what the catalog holds, in counts. User and binder counts cover only what
 * is public (privacy.ts), so the summary says nothing about who did not opt in.
 */
import { envelope, toTimestamp, type Envelope } from '../../snapshots/envelope.js';
import { slugify } from '../../snapshots/ids.js';
import {
  CURRENCIES, GAMES, type BinderRecord, type Game, type PriceSeriesRecord, type UserRecord,
} from '../../snapshots/records.js';
import { laterOf } from './as-of.js';
import { publicUsersById, publishedBinders } from './privacy.js';
import type { CatalogIndex } from './summaries.js';

export interface GameCounts {
  sets: number;
  cards: number;
  pricedCards: number;
  /** Distinct oracle concepts (MTG); null for games without oracle ids. */
  oracleConcepts: number | null;
}

export interface CatalogSummary {
  games: Record<Game, GameCounts>;
  figures: number;
  figureSeries: number;
  artists: number;
  publicUsers: number;
  publicBinders: number;
  currencies: string[];
  priceRange: { from: string; to: string } | null;
}

/** First and last day (`YYYY-MM-DD`) with a price anywhere in the catalog. */
export type PriceRange = { from: string; to: string } | null;

const DAY_MS = 86_400_000;

/**
 * Folds one price series into the running range, so the compile can track it while it streams the
 * prices once: `range = extendPriceRange(range, record)`.
 */
export function extendPriceRange(range: PriceRange, record: PriceSeriesRecord): PriceRange {
  const first = record.usdCents.findIndex((c) => c !== null);
  if (first < 0) return range;
  let last = record.usdCents.length - 1;
  while (record.usdCents[last] === null) last--;
  const start = Date.parse(`${record.start}T00:00:00.000Z`);
  const from = new Date(start + first * DAY_MS).toISOString().slice(0, 10);
  const to = new Date(start + last * DAY_MS).toISOString().slice(0, 10);
  if (range === null) return { from, to };
  return { from: from < range.from ? from : range.from, to: to > range.to ? to : range.to };
}

export interface CatalogSummaryInput {
  index: CatalogIndex;
  users: Iterable<UserRecord>;
  binders: Iterable<BinderRecord>;
  priceRange: PriceRange;
}

/**
 * asOf: the latest of the price range's end, the cards'/figures' addedAt, the public users' joinedAt
 * and the published binders' updatedAt: every date behind a number in the document.
 */
export function renderCatalogSummary(input: CatalogSummaryInput): Envelope<CatalogSummary> {
  const { index } = input;
  const games = Object.fromEntries(
    GAMES.map((g): [Game, GameCounts] => [g, { sets: 0, cards: 0, pricedCards: 0, oracleConcepts: null }]),
  ) as Record<Game, GameCounts>;
  const oracles = new Map<Game, Set<string>>();
  const artists = new Set<string>();
  let asOf: string | null = input.priceRange?.to ?? null;

  for (const set of index.sets.values()) if (games[set.game]) games[set.game].sets++;
  for (const card of index.cards.values()) {
    const counts = games[card.game];
    if (!counts) continue;
    counts.cards++;
    if (index.prices.card.has(card.id)) counts.pricedCards++;
    if (card.oracleId !== null) {
      let ids = oracles.get(card.game);
      if (!ids) oracles.set(card.game, (ids = new Set()));
      ids.add(card.oracleId);
    }
    if (card.artist !== null) artists.add(slugify(card.artist));
    asOf = laterOf(asOf, card.addedAt);
  }
  // MTG always has oracle concepts (0 in a catalog without MTG cards); other games only if their
  // source carries oracle ids.
  games.mtg.oracleConcepts = 0;
  for (const [game, ids] of oracles) games[game].oracleConcepts = ids.size;

  for (const f of index.figures.values()) asOf = laterOf(asOf, f.addedAt);
  const publicUsers = publicUsersById(input.users);
  for (const u of publicUsers.values()) asOf = laterOf(asOf, u.joinedAt);
  const binders = publishedBinders(input.binders, publicUsers);
  for (const { binder } of binders) asOf = laterOf(asOf, binder.updatedAt);

  return envelope('catalogSummary', asOf, {
    games,
    figures: index.figures.size,
    figureSeries: index.series.size,
    artists: artists.size,
    publicUsers: publicUsers.size,
    publicBinders: binders.length,
    currencies: ['USD', ...CURRENCIES],
    priceRange: input.priceRange === null
      ? null
      : { from: toTimestamp(input.priceRange.from), to: toTimestamp(input.priceRange.to) },
  });
}
