/**
 * The `prices` and `fx` blocks that card and figure documents share (API.md §2.2): the current USD
 * price, its alternate-currency conversions, and the provenance of each rate, once per document.
 * Each conversion uses the latest rate at or before the price date; a currency without such a rate
 * gets null in both places rather than a missing key.
 *
 * @example
 *   marketBlocks(summarizePrices(series), fx)
 *   // { prices: { marketCents: 250, marketCentsEur: 230, ..., priceDate: '2026-11-20T00:00:00.000Z',
 *   //             previousCents: 200, change24hCents: 50, velocity24h: 0.25, synthetic: false },
 *   //   fx: { eur: { rate: 0.92, date: '2026-11-20T00:00:00.000Z', source: 'ecb' }, gbp: null, ... } }
 *   marketBlocks(null, fx)  // { prices: null, fx: null }
 */
import { toTimestamp } from '../../snapshots/envelope.js';
import { convertCents } from './fx.js';
import type { FxLookup, FxQuote, LatestPrice } from './types.js';

export interface MarketPrices {
  /** Last known price, USD cents. */
  marketCents: number;
  marketCentsEur: number | null;
  marketCentsGbp: number | null;
  marketCentsCad: number | null;
  marketCentsAud: number | null;
  /** Day of marketCents (timestamp). */
  priceDate: string;
  /** Price the day before priceDate, or null when that day has none. */
  previousCents: number | null;
  change24hCents: number | null;
  velocity24h: number | null;
  /**
   * True when the series was made up for a demo (`catalog import --synthetic-prices`), not observed
   * in any market: a partner must be able to tell invented prices from real ones.
   */
  synthetic: boolean;
}

export interface FxProvenance {
  /** Units of the currency per 1 USD. */
  rate: number;
  /** Day of the rate (timestamp). */
  date: string;
  source: string;
}

export interface FxBlock {
  eur: FxProvenance | null;
  gbp: FxProvenance | null;
  cad: FxProvenance | null;
  aud: FxProvenance | null;
}

export function marketBlocks(summary: LatestPrice | null, fx: FxLookup): { prices: MarketPrices | null; fx: FxBlock | null } {
  if (summary === null) return { prices: null, fx: null };
  const eur = fx.quoteOn(summary.lastDate, 'EUR');
  const gbp = fx.quoteOn(summary.lastDate, 'GBP');
  const cad = fx.quoteOn(summary.lastDate, 'CAD');
  const aud = fx.quoteOn(summary.lastDate, 'AUD');
  const usd = summary.lastCents;
  return {
    prices: {
      marketCents: usd,
      marketCentsEur: convertCents(usd, eur),
      marketCentsGbp: convertCents(usd, gbp),
      marketCentsCad: convertCents(usd, cad),
      marketCentsAud: convertCents(usd, aud),
      priceDate: toTimestamp(summary.lastDate),
      previousCents: summary.previousCents,
      change24hCents: summary.previousCents === null ? null : usd - summary.previousCents,
      velocity24h: summary.velocity24h,
      synthetic: summary.synthetic,
    },
    fx: { eur: provenance(eur), gbp: provenance(gbp), cad: provenance(cad), aud: provenance(aud) },
  };
}

function provenance(quote: FxQuote | null): FxProvenance | null {
  return quote === null ? null : { rate: quote.rate, date: toTimestamp(quote.date), source: quote.source };
}
