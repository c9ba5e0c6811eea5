/**
 * Records of the canonical catalog: the compiler's input format (docs/source-format.md).
 * One NDJSON file per kind, one record per line. Dates without time are `YYYY-MM-DD` (UTC);
 * instants are `YYYY-MM-DDTHH:MM:SS.mmmZ`. Money is integer USD cents.
 *
 * @example
 *   const card: CardRecord = { id: 'mtg-lea-161', game: 'mtg', setCode: 'lea', name: 'Lightning Bolt', ... };
 */

export const GAMES = ['mtg', 'pokemon', 'lorcana', 'onepiece'] as const;
export type Game = (typeof GAMES)[number];

/** Alternate currencies, in the order documents list them (API.md §2.2). */
export const CURRENCIES = ['EUR', 'GBP', 'CAD', 'AUD'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** History ranges of a card or figure document, with their length in days (`all` = no bound). */
export const RANGES = ['30d', '3mo', '6mo', '12mo', 'all'] as const;
export type Range = (typeof RANGES)[number];
export const RANGE_DAYS: Record<Range, number | null> = { '30d': 30, '3mo': 91, '6mo': 182, '12mo': 365, all: null };

/** Figure rarity tiers, most common first. */
export const FIGURE_RARITIES = ['common', 'uncommon', 'rare', 'ultra', 'secret'] as const;
export type FigureRarity = (typeof FIGURE_RARITIES)[number];

export const ACTIVITY_TYPES = ['binder_add', 'wishlist_add', 'pull', 'price_alert'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export type EntityType = 'card' | 'figure';

/** `meta.json` (a single JSON object, not NDJSON): what the export describes. */
export interface CatalogMeta {
  formatVersion: 1;
  /** The day the export is true for (`YYYY-MM-DD`): the last day prices may have. */
  asOf: string;
}

/** `sets.ndjson`. Identity is (game, code); code is a lowercase slug. */
export interface SetRecord {
  game: Game;
  code: string;
  name: string;
  /** Null when the source has no (or only a placeholder) release date. */
  releasedAt: string | null;
  /** Series or block name (e.g. "Scarlet & Violet"), or null. */
  series: string | null;
  /** Number printed on the cards as the set total, or null when the set prints none. */
  printedTotal: number | null;
}

/** `cards.ndjson`: one printing. */
export interface CardRecord {
  id: string;
  game: Game;
  setCode: string;
  name: string;
  /** Collector number as printed ("1", "★12", "123a", "OP01-001"). */
  number: string;
  /** Free text per game; null when the source prints none. */
  rarity: string | null;
  artist: string | null;
  /**
   * The concept every printing of one card shares: the MTG oracle id (one rules object), or for One
   * Piece the card number without its parallel suffix; null when the game has none or it is unknown.
   */
  oracleId: string | null;
  imageUrl: string | null;
  /** Null when the source has no release date. */
  releasedAt: string | null;
  /** The day the card entered the catalog. */
  addedAt: string;
  /** How many users watch this entry: the popularity signal (search ranking, sparklines). */
  watchers: number;
}

/** `figure-series.ndjson`. */
export interface FigureSeriesRecord {
  id: string;
  name: string;
  manufacturer: string | null;
  releasedAt: string | null;
}

/** `figures.ndjson`. */
export interface FigureRecord {
  id: string;
  seriesId: string;
  name: string;
  /** Null when the maker publishes no rarity tiers (e.g. amiibo). */
  rarity: FigureRarity | null;
  imageUrl: string | null;
  releasedAt: string | null;
  addedAt: string;
  watchers: number;
}

/**
 * `prices.ndjson`: the daily USD price series of one card or figure, at most one line per entity.
 * `usdCents[i]` is the price on day `start + i`; null means no observation that day.
 * Entities without any price have no line.
 */
export interface PriceSeriesRecord {
  entity: EntityType;
  id: string;
  start: string;
  usdCents: (number | null)[];
  /**
   * True when the series was made up for a demo (`catalog import --synthetic-prices`), not observed;
   * omitted or null means observed.
   */
  synthetic?: boolean | null;
}

/** `fx-rates.ndjson`: one rate per currency per day; `perUsd` units of the currency for 1 USD. */
export interface FxRateRecord {
  date: string;
  currency: Currency;
  perUsd: number;
  source: string;
}

/**
 * `pull-observations.ndjson`: one community report of opened blind boxes of a series.
 * `boxes` boxes were opened; `pulls[figureId]` of them held that figure (sum(pulls) <= boxes).
 */
export interface PullObservationRecord {
  id: string;
  seriesId: string;
  /** Reporter; null when reported anonymously. Never published. */
  userId: string | null;
  observedAt: string;
  boxes: number;
  pulls: Record<string, number>;
}

/** `users.ndjson`. Only `showcase && !anonymous` users may ever appear in a document. */
export interface UserRecord {
  id: string;
  /** Lowercase slug; null for anonymous users. */
  handle: string | null;
  displayName: string | null;
  showcase: boolean;
  anonymous: boolean;
  joinedAt: string;
}

export interface BinderItem {
  entity: EntityType;
  id: string;
}

/** `binders.ndjson`. Published only when `public` and its owner opted into the showcase. */
export interface BinderRecord {
  id: string;
  userId: string;
  name: string;
  public: boolean;
  items: BinderItem[];
  updatedAt: string;
}

/** `activity.ndjson`: one user action; published only as aggregated counts. */
export interface ActivityEventRecord {
  id: string;
  userId: string | null;
  type: ActivityType;
  entity: EntityType;
  entityId: string;
  at: string;
}

/** The NDJSON files of a catalog folder, by kind, in the order the compiler reads them. */
export const SOURCE_FILES = {
  sets: 'sets.ndjson',
  cards: 'cards.ndjson',
  figureSeries: 'figure-series.ndjson',
  figures: 'figures.ndjson',
  fxRates: 'fx-rates.ndjson',
  users: 'users.ndjson',
  binders: 'binders.ndjson',
  activity: 'activity.ndjson',
  pullObservations: 'pull-observations.ndjson',
  prices: 'prices.ndjson',
} as const;
export type SourceKind = keyof typeof SOURCE_FILES;
export const META_FILE = 'meta.json';
