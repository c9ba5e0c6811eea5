/**
 * The small digest of a price series that outlives its rendering: the compile streams each series
 * once, renders the card or figure while it is at hand, and keeps only this for the aggregate
 * documents (oracle, trending, sparklines). See PriceSummary in types.ts for each field.
 *
 * @example
 *   summarizePrices({ entity: 'card', id: 'x', start: '2026-11-18', usdCents: [100, 200, 250] })
 *   // { lastDate: '2026-11-20', lastCents: 250, previousCents: 200, velocity24h: 0.25,
 *   //   recentDaily: [null × 27, 100, 200, 250], synthetic: false }
 *   summarizePrices({ entity: 'card', id: 'y', start: '2026-11-18', usdCents: [null] })  // null
 */
import type { PriceSeriesRecord } from '../../snapshots/records.js';
import { dayString } from '../../snapshots/dates.js';
import { dailyPrices, roundTo, type DailyPrices } from './price-history.js';
import type { PriceSummary } from './types.js';

/** Days kept in `recentDaily` (the sparkline length). */
export const RECENT_DAYS = 30;

export function summarizePrices(series: PriceSeriesRecord): PriceSummary | null {
  const daily = dailyPrices(series);
  return daily === null ? null : summarizeDaily(daily, isSynthetic(series));
}

/** Only `synthetic: true` marks a made-up series; omitted, null or false means observed (docs/source-format.md). */
export function isSynthetic(series: PriceSeriesRecord): boolean {
  return series.synthetic === true;
}

/**
 * summarizePrices for a series already parsed (the card renderer parses once for all its work);
 * `synthetic` is `isSynthetic(series)` of the series it was parsed from.
 */
export function summarizeDaily(daily: DailyPrices, synthetic: boolean): PriceSummary {
  const { values, lastIndex, startDay } = daily;
  const lastCents = values[lastIndex] as number;
  const previousCents = lastIndex > 0 ? values[lastIndex - 1] : null;
  const recentDaily: (number | null)[] = new Array(RECENT_DAYS);
  for (let k = 0; k < RECENT_DAYS; k++) {
    const i = lastIndex - (RECENT_DAYS - 1) + k;
    recentDaily[k] = i >= 0 ? values[i] : null;
  }
  return {
    lastDate: dayString(startDay + lastIndex),
    lastCents,
    previousCents,
    velocity24h: velocity(lastCents, previousCents),
    recentDaily,
    synthetic,
  };
}

/** (now - 24 h ago) / 24 h ago, 4 decimals; null when the earlier price is unknown or 0. */
export function velocity(nowCents: number, previousCents: number | null): number | null {
  if (previousCents === null || previousCents === 0) return null;
  return roundTo((nowCents - previousCents) / previousCents, 4);
}
