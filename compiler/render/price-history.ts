/**
 * Price history maths shared by the card and figure documents: the window of a range, the points a
 * document keeps (downsampled to fixed calendar buckets), and the aggregates over the window.
 *
 * Rules (API.md §3, "Card documents stay within about 2-5 KB"):
 * - The window is the last RANGE_DAYS[range] days ending at the last price date; `all` is the whole
 *   series from its first price.
 * - Points: daily for 30d and 3mo, weekly (ISO weeks) for 6mo and 12mo, monthly for all. A bucket's
 *   point is the last non-null price in it, stamped with the day it was observed; buckets without a
 *   price give no point. When a window touches more than MAX_POINTS buckets the bucket widens to the
 *   next unit (week → month → quarter → year), which keeps every document inside its size budget.
 * - Aggregates use the window's daily non-null prices, never the downsampled points.
 *
 * @example
 *   const daily = dailyPrices({ entity: 'card', id: 'x', start: '2026-01-01', usdCents: [100, null, 120] });
 *   historyBlock(daily, '30d')
 *   // { name: '30d', from: '2025-12-05T00:00:00.000Z', to: '2026-01-03T00:00:00.000Z', resolution: 'day',
 *   //   points: [['2026-01-01T00:00:00.000Z', 100], ['2026-01-03T00:00:00.000Z', 120]],
 *   //   aggregates: { minCents: 100, maxCents: 120, avgCents: 110, changeCents: 20, changePct: 20 } }
 */
import { RANGE_DAYS, type PriceSeriesRecord, type Range } from '../../snapshots/records.js';
import { dayNumber, dayTimestamp } from '../../snapshots/dates.js';
import { RESOLUTIONS, bucketOf, bucketSpan, type Resolution } from './day-buckets.js';

export type { Resolution } from './day-buckets.js';

/** The bucket each range starts from, before any widening. */
export const BASE_RESOLUTION: Record<Range, Resolution> = { '30d': 'day', '3mo': 'day', '6mo': 'week', '12mo': 'week', all: 'month' };

/**
 * Most points one history may hold. A point is ~36 bytes of JSON, so 100 points plus the rest of a
 * card (~1.2 KB) stays under 5 KB; 3mo (91 daily points) is the largest fixed range.
 */
export const MAX_POINTS = 100;

/** A price series with its dates parsed once: `values[i]` is the price on day `startDay + i`. */
export interface DailyPrices {
  startDay: number;
  values: readonly (number | null)[];
  /** Index of the first and last non-null value. */
  firstIndex: number;
  lastIndex: number;
}

/** The days of a range: `fromDay`..`toDay` inclusive, and the indexes of `values` inside them. */
export interface PriceWindow {
  fromDay: number;
  toDay: number;
  startIndex: number;
  endIndex: number;
}

export interface PriceAggregates {
  minCents: number | null;
  maxCents: number | null;
  /** Mean of the daily prices, rounded to whole cents. */
  avgCents: number | null;
  /** Last minus first price of the window. */
  changeCents: number | null;
  /** changeCents / first * 100, 2 decimals; null when the first price is 0. */
  changePct: number | null;
}

/** `[timestamp, usdCents]`: the last price observed in a bucket, stamped with its day. */
export type PricePoint = [timestamp: string, cents: number];

export interface HistoryBlock {
  name: Range;
  /** First and last day of the window (timestamps); null without prices. */
  from: string | null;
  to: string | null;
  resolution: Resolution;
  points: PricePoint[];
  aggregates: PriceAggregates;
}

/** Parses a series once; null when it holds no price at all. */
export function dailyPrices(record: PriceSeriesRecord): DailyPrices | null {
  const values = record.usdCents;
  let firstIndex = 0;
  while (firstIndex < values.length && values[firstIndex] === null) firstIndex++;
  if (firstIndex === values.length) return null;
  let lastIndex = values.length - 1;
  while (values[lastIndex] === null) lastIndex--;
  return { startDay: dayNumber(record.start), values, firstIndex, lastIndex };
}

/** The window of the last `days` days ending at the last price (`null` = from the first price). */
export function priceWindow(prices: DailyPrices, days: number | null): PriceWindow {
  const toDay = prices.startDay + prices.lastIndex;
  if (days === null) return { fromDay: prices.startDay + prices.firstIndex, toDay, startIndex: prices.firstIndex, endIndex: prices.lastIndex };
  const fromDay = toDay - days + 1;
  return { fromDay, toDay, startIndex: Math.max(prices.firstIndex, fromDay - prices.startDay), endIndex: prices.lastIndex };
}

export const NO_AGGREGATES: Readonly<PriceAggregates> = Object.freeze({
  minCents: null, maxCents: null, avgCents: null, changeCents: null, changePct: null,
});

export function windowAggregates(prices: DailyPrices, window: PriceWindow): PriceAggregates {
  const values = prices.values;
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let count = 0;
  let first: number | null = null;
  let last = 0;
  for (let i = window.startIndex; i <= window.endIndex; i++) {
    const v = values[i];
    if (v === null) continue;
    if (first === null) first = v;
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
    count++;
    last = v;
  }
  if (first === null) return { ...NO_AGGREGATES };
  const change = last - first;
  return {
    minCents: min,
    maxCents: max,
    avgCents: Math.round(sum / count),
    changeCents: change,
    changePct: first === 0 ? null : roundTo((change / first) * 100, 2),
  };
}

/** The base unit, widened until the window touches at most `maxPoints` buckets. */
export function resolutionFor(window: PriceWindow, base: Resolution, maxPoints = MAX_POINTS): Resolution {
  let i = RESOLUTIONS.indexOf(base);
  while (i < RESOLUTIONS.length - 1 && bucketSpan(window.fromDay, window.toDay, RESOLUTIONS[i]) > maxPoints) i++;
  return RESOLUTIONS[i];
}

/** One point per calendar bucket of `unit` that holds a price: the last price in it. */
export function downsample(prices: DailyPrices, window: PriceWindow, unit: Resolution): PricePoint[] {
  const points: PricePoint[] = [];
  forEachPoint(prices, window, unit, (day, cents) => points.push([dayTimestamp(day), cents]));
  return points;
}

/** downsample's points as `point(day, cents)` calls, oldest first (entity-json.ts writes them as text). */
export function forEachPoint(prices: DailyPrices, window: PriceWindow, unit: Resolution, point: (day: number, cents: number) => void): void {
  const { values, startDay } = prices;
  let bucketEnd = -Infinity;
  let day = 0;
  let cents = 0;
  for (let i = window.startIndex; i <= window.endIndex; i++) {
    const v = values[i];
    if (v === null) continue;
    const d = startDay + i;
    if (d >= bucketEnd) {
      if (bucketEnd !== -Infinity) point(day, cents);
      bucketEnd = unit === 'day' ? d + 1 : bucketOf(d, unit).end;
    }
    day = d;
    cents = v;
  }
  if (bucketEnd !== -Infinity) point(day, cents);
}

/**
 * The history block of a document for one range; an empty block (no points, null aggregates) without
 * prices. `maxPoints` lets a caller with a byte budget ask for fewer points (wider buckets).
 */
export function historyBlock(prices: DailyPrices | null, range: Range, maxPoints = MAX_POINTS): HistoryBlock {
  if (prices === null) return { name: range, from: null, to: null, resolution: BASE_RESOLUTION[range], points: [], aggregates: { ...NO_AGGREGATES } };
  const { window, resolution } = historyPlan(prices, range, maxPoints);
  return {
    name: range,
    from: dayTimestamp(window.fromDay),
    to: dayTimestamp(window.toDay),
    resolution,
    points: downsample(prices, window, resolution),
    aggregates: windowAggregates(prices, window),
  };
}

/** The window of a range and the bucket its points use (historyBlock's rules). */
export function historyPlan(prices: DailyPrices, range: Range, maxPoints = MAX_POINTS): { window: PriceWindow; resolution: Resolution } {
  const window = priceWindow(prices, RANGE_DAYS[range]);
  return { window, resolution: resolutionFor(window, BASE_RESOLUTION[range], maxPoints) };
}

/** Rounds half away from zero to `decimals` places (so +x and -x round alike). */
export function roundTo(value: number, decimals: number): number {
  const f = 10 ** decimals;
  const r = (Math.sign(value) * Math.round(Math.abs(value) * f)) / f;
  return r === 0 ? 0 : r;
}
