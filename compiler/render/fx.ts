/**
 * FX conversion for the alternate-currency price fields (API.md §2.2). Rates are daily per currency
 * with gaps (no rates on weekends and holidays), so a price on a Sunday uses Friday's rate: the
 * latest rate at or before the price date, found by binary search over day numbers.
 *
 * @example
 *   const fx = createFxLookup([{ date: '2026-11-20', currency: 'EUR', perUsd: 0.92, source: 'ecb' }]);
 *   const quote = fx.quoteOn('2026-11-22', 'EUR');  // { currency: 'EUR', rate: 0.92, date: '2026-11-20', source: 'ecb' }
 *   convertCents(1234, quote)                        // 1135  (round(1234 * 0.92))
 *   fx.quoteOn('2026-11-19', 'EUR')                  // null: no rate that early
 */
import { CURRENCIES, type Currency, type FxRateRecord } from '../../snapshots/records.js';
import { dayNumber } from '../../snapshots/dates.js';
import type { FxLookup, FxQuote } from './types.js';

interface CurrencyTable {
  days: Int32Array;
  quotes: FxQuote[];
}

/**
 * Indexes the rates once; lookups allocate nothing. When a currency has two rates on one day, the
 * later one in `rates` wins (a source that re-publishes a day corrects it).
 */
export function createFxLookup(rates: readonly FxRateRecord[]): FxLookup {
  const tables = new Map<Currency, CurrencyTable>();
  for (const currency of CURRENCIES) {
    const rows = rates
      .map((r, order) => ({ r, order, day: r.currency === currency ? dayNumber(r.date) : 0 }))
      .filter((x) => x.r.currency === currency)
      .sort((a, b) => a.day - b.day || a.order - b.order);
    const days: number[] = [];
    const quotes: FxQuote[] = [];
    for (const { r, day } of rows) {
      const quote: FxQuote = Object.freeze({ currency, rate: r.perUsd, date: r.date, source: r.source });
      if (days.length > 0 && days[days.length - 1] === day) quotes[quotes.length - 1] = quote;
      else {
        days.push(day);
        quotes.push(quote);
      }
    }
    tables.set(currency, { days: Int32Array.from(days), quotes });
  }
  return {
    quoteOn(date: string, currency: Currency): FxQuote | null {
      const table = tables.get(currency);
      if (table === undefined) return null;
      const i = lastAtOrBefore(table.days, dayNumber(date));
      return i < 0 ? null : table.quotes[i];
    },
  };
}

/** Index of the last element <= `day` in the ascending `days`, or -1. */
function lastAtOrBefore(days: Int32Array, day: number): number {
  let lo = 0;
  let hi = days.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (days[mid] <= day) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** USD cents in the quote's currency, rounded to whole cents; null without a quote. */
export function convertCents(usdCents: number, quote: FxQuote | null): number | null {
  return quote === null ? null : Math.round(usdCents * quote.rate);
}
