/**
 * Values the renderers pass between each other. Price histories are large, so the compile streams
 * them once: each card/figure document is rendered while its series is at hand, and only a small
 * LatestPrice is kept for the aggregate documents (oracle, trending, lists, summary).
 */
import type { Currency } from '../../snapshots/records.js';

export interface PriceSummary {
  /** Day of the last non-null price (`YYYY-MM-DD`). */
  lastDate: string;
  /** Last known price, USD cents. */
  lastCents: number;
  /** Price on the day before lastDate (24 h earlier), or null when that day has no price. */
  previousCents: number | null;
  /** (lastCents - previousCents) / previousCents, rounded to 4 decimals; null without previousCents or when it is 0. */
  velocity24h: number | null;
  /** The last 30 days ending at lastDate, oldest first, null for days without a price (sparklines). */
  recentDaily: (number | null)[];
  /**
   * True when the series was made up for a demo (`catalog import --synthetic-prices`), not observed.
   * Kept here so every list item built from this summary can say so too, not only the card or
   * figure document rendered while the whole series was at hand.
   */
  synthetic: boolean;
}

/**
 * What the compile keeps of a PriceSummary for every card and figure until the aggregates are done:
 * all of it but the 30 recent days, which only the sparklines feed shows, for 50 entities
 * (discover-sparklines.ts keeps theirs). The recent days were about 290 bytes per entity, most of what
 * the summaries held on the heap.
 */
export type LatestPrice = Omit<PriceSummary, 'recentDaily'>;

/** The entities' LatestPrice by id, as the renderers read them (a ReadonlyMap's look-ups; compile/price-table.ts). */
export interface PriceLookup {
  get(id: string): LatestPrice | undefined;
  has(id: string): boolean;
  readonly size: number;
  /**
   * The LatestPrice of `ids[i]` by position i, each id looked up once here (summaries.ts
   * `catalogInOrder`). Optional: without it (a plain Map) the positions are filled from `get`.
   */
  inOrder?(ids: readonly string[] | IdOrder): PricesInOrder;
}

/** Ids by position with a look-up of the position (a card table's columns: source/card-table.ts). */
export interface IdOrder {
  readonly length: number;
  id(i: number): string;
  /** The position of `id`, or -1. */
  indexOf(id: string): number;
}

/** Prices by position in a list of ids (PriceLookup.inOrder): no look-up by id per read. */
export interface PricesInOrder {
  get(i: number): LatestPrice | undefined;
  has(i: number): boolean;
  /** `get(i)?.lastDate` without making the LatestPrice (a pass over every entity reads only the day). */
  lastDate?(i: number): string | undefined;
  /**
   * The token of the input the compile recorded for the entity at `i` (compile/price-table.ts), when
   * the lookup records them; undefined otherwise.
   */
  token?(i: number): string | undefined;
}

/** One alternate-currency conversion with its provenance (API.md §2.2). */
export interface FxQuote {
  currency: Currency;
  /** Units of the currency per 1 USD. */
  rate: number;
  /** Day of the rate used (`YYYY-MM-DD`): the latest rate at or before the price date. */
  date: string;
  source: string;
}

/** Latest FX quote at or before a day, per currency; null when the source has no rate that early. */
export interface FxLookup {
  quoteOn(date: string, currency: Currency): FxQuote | null;
}
