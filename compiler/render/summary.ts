/**
 * `/v1/catalog/summary`: what the catalog holds, in counts. User and binder counts cover only what
 * is public (privacy.ts), so the summary says nothing about who did not opt in.
 */
import { dayNumber, dayString } from '../../snapshots/dates.js';
import { envelope, toTimestamp, type Envelope } from '../../snapshots/envelope.js';
import {
  CURRENCIES, GAMES, type BinderRecord, type Game, type PriceSeriesRecord, type UserRecord,
} from '../../snapshots/records.js';
import { artistSlugs } from './artist-pages.js';
import { laterOf } from './as-of.js';
import { publicUsersById, publishedBinders } from './privacy.js';
import { catalogInOrder, type CatalogIndex } from './summaries.js';

/** A count for each of the four games, 0 where a game has none (all four keys always present). */
export type ByGame<T = number> = Record<Game, T>;

/**
 * The shape partner-api-v1.md part 2 fixes (`cards.total`, `cards.byGame`, `figures.total`,
 * `sets.total`: a partner reads them before a full mirror), with the rest of the summary laid
 * under the same objects so one shape serves both.
 */
export interface CatalogSummary {
  cards: {
    total: number;
    byGame: ByGame;
    /** Cards with at least one price point (made-up or observed). */
    priced: number;
    pricedByGame: ByGame;
    /** Distinct oracle ids; per game null where the game's source carries none (MTG always counts). */
    oracleConcepts: { total: number; byGame: ByGame<number | null> };
    /** Distinct artists (by slug) over every printing. */
    artists: number;
  };
  sets: { total: number; byGame: ByGame };
  figures: { total: number; priced: number; series: number };
  publicUsers: number;
  publicBinders: number;
  currencies: string[];
  priceRange: { from: string; to: string } | null;
}

/** First and last day (`YYYY-MM-DD`) with a price anywhere in the catalog. */
export type PriceRange = { from: string; to: string } | null;

/**
 * Folds one price series into the running range, so the compile can track it while it streams the
 * prices once: `range = extendPriceRange(range, record)`.
 */
export function extendPriceRange(range: PriceRange, record: PriceSeriesRecord): PriceRange {
  const first = record.usdCents.findIndex((c) => c !== null);
  if (first < 0) return range;
  let last = record.usdCents.length - 1;
  while (record.usdCents[last] === null) last--;
  const start = dayNumber(record.start);
  const from = dayString(start + first);
  const to = dayString(start + last);
  if (range === null) return { from, to };
  return { from: from < range.from ? from : range.from, to: to > range.to ? to : range.to };
}

export interface CatalogSummaryInput {
  index: CatalogIndex;
  users: Iterable<UserRecord>;
  binders: Iterable<BinderRecord>;
  priceRange: PriceRange;
  /**
   * The number of distinct artist slugs over every card, when the caller has grouped them already
   * (`groupArtists(cards).size`): the slugs are then not made again (about 0.5 s at a million cards).
   */
  artists?: number;
}

/**
 * asOf: the latest of the price range's end, the cards'/figures' addedAt, the public users' joinedAt
 * and the published binders' updatedAt: every date behind a number in the document.
 */
export function renderCatalogSummary(input: CatalogSummaryInput): Envelope<CatalogSummary> {
  const { index } = input;
  const zeros = (): ByGame => ({ mtg: 0, pokemon: 0, lorcana: 0, onepiece: 0 });
  const cards = zeros();
  const priced = zeros();
  const sets = zeros();
  const oracles = new Map<Game, Set<string>>();
  const artists = new Set<string>();
  const slugOf = input.artists === undefined ? artistSlugs() : null;
  let asOf: string | null = input.priceRange?.to ?? null;

  for (const set of index.sets.values()) if (set.game in sets) sets[set.game]++;
  const inOrder = catalogInOrder(index);
  for (let i = 0; i < inOrder.cards.length; i++) {
    const game = inOrder.cards.game(i);
    if (!(game in cards)) continue;
    cards[game]++;
    if (inOrder.cardPrices.has(i)) priced[game]++;
    const oracleId = inOrder.cards.oracleId(i);
    if (oracleId !== null) {
      let ids = oracles.get(game);
      if (!ids) oracles.set(game, (ids = new Set()));
      ids.add(oracleId);
    }
    const artist = inOrder.cards.artist(i);
    if (artist !== null && slugOf !== null) artists.add(slugOf(artist));
    asOf = laterOf(asOf, inOrder.cards.addedAt(i));
  }
  // MTG always has oracle concepts (0 in a catalog without MTG cards); other games only if their
  // source carries oracle ids.
  const oracleByGame: ByGame<number | null> = { mtg: 0, pokemon: null, lorcana: null, onepiece: null };
  for (const [game, ids] of oracles) oracleByGame[game] = ids.size;

  let pricedFigures = 0;
  inOrder.figures.forEach((f, i) => {
    if (inOrder.figurePrices.has(i)) pricedFigures++;
    asOf = laterOf(asOf, f.addedAt);
  });
  const publicUsers = publicUsersById(input.users);
  for (const u of publicUsers.values()) asOf = laterOf(asOf, u.joinedAt);
  const binders = publishedBinders(input.binders, publicUsers);
  for (const { binder } of binders) asOf = laterOf(asOf, binder.updatedAt);

  return envelope('catalogSummary', asOf, {
    cards: {
      total: sum(cards),
      byGame: cards,
      priced: sum(priced),
      pricedByGame: priced,
      oracleConcepts: { total: sum(oracleByGame), byGame: oracleByGame },
      artists: input.artists ?? artists.size,
    },
    sets: { total: sum(sets), byGame: sets },
    figures: { total: index.figures.size, priced: pricedFigures, series: index.series.size },
    publicUsers: publicUsers.size,
    publicBinders: binders.length,
    currencies: ['USD', ...CURRENCIES],
    priceRange: input.priceRange === null
      ? null
      : { from: toTimestamp(input.priceRange.from), to: toTimestamp(input.priceRange.to) },
  });
}

function sum(byGame: ByGame<number | null>): number {
  return GAMES.reduce((total, g) => total + (byGame[g] ?? 0), 0);
}
