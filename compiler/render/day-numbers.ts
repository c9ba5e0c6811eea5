/**
 * Calendar days as integers (days since 1970-01-01, UTC), for the price maths of the renderers.
 * A card compile touches every price point of every series at five ranges (~500,000 renders per
 * 100k cards), so dates are parsed once per series and every loop works on integers; strings are
 * made again only for the few points a document keeps. The conversions are Howard Hinnant's
 * `days_from_civil` / `civil_from_days` (https://howardhinnant.github.io/date_algorithms.html):
 * integer arithmetic, no Date object, no cache to keep.
 *
 * @example
 *   dayNumber('1970-01-02')         // 1
 *   dayString(19_723)               // '2024-01-01'
 *   dayTimestamp(19_723)            // '2024-01-01T00:00:00.000Z'
 *   bucketOf(19_725, 'week')        // { start: 19_723, end: 19_730 }  (ISO week: Monday to Sunday)
 */
import { CatalogError } from '../../snapshots/errors.js';

/** Calendar units a price history may be bucketed by, finest first. */
export const RESOLUTIONS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** Day number of a `YYYY-MM-DD` date. Throws `invalid_source` on anything else. */
export function dayNumber(date: string): number {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  if (date.length !== 10 || date[4] !== '-' || date[7] !== '-' || !(m >= 1 && m <= 12 && d >= 1 && d <= 31) || !Number.isInteger(y)) {
    throw new CatalogError('invalid_source', `not a YYYY-MM-DD date: ${JSON.stringify(date)}`, { value: date });
  }
  return daysFromCivil(y, m, d);
}

/** `YYYY-MM-DD` of a day number. */
export function dayString(day: number): string {
  const [y, m, d] = civilFromDays(day);
  return `${y}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`;
}

/**
 * Memo of dayTimestamp. Formatting is most of a card render's cost (~230 points per card over its
 * five ranges, mostly the same few hundred days across the whole catalog), so the strings are made
 * once. It memoizes a pure function, so nothing can observe it; MAX_MEMO_DAYS bounds it (about 80
 * years of distinct days) and it simply stops growing past that.
 */
const timestampMemo = new Map<number, string>();
const MAX_MEMO_DAYS = 30_000;

/** API timestamp (`YYYY-MM-DDTHH:MM:SS.mmmZ`, midnight UTC) of a day number. */
export function dayTimestamp(day: number): string {
  let ts = timestampMemo.get(day);
  if (ts === undefined) {
    ts = `${dayString(day)}T00:00:00.000Z`;
    if (timestampMemo.size < MAX_MEMO_DAYS) timestampMemo.set(day, ts);
  }
  return ts;
}

export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = month > 2 ? month - 3 : month + 9;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** [year, month 1-12, day 1-31] of a day number. */
export function civilFromDays(dayNo: number): [number, number, number] {
  const z = dayNo + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

/** The calendar bucket holding `day`: days `start` (inclusive) to `end` (exclusive). */
export interface DayBucket {
  start: number;
  end: number;
}

/**
 * Buckets are fixed calendar units (ISO weeks starting Monday, calendar months, quarters, years),
 * never "N days back from today", so a new day only ever changes the newest bucket.
 */
export function bucketOf(day: number, unit: Resolution): DayBucket {
  switch (unit) {
    case 'day':
      return { start: day, end: day + 1 };
    case 'week': {
      // Day 0 (1970-01-01) was a Thursday: (day + 3) mod 7 is 0 on Mondays.
      const start = day - mod(day + 3, 7);
      return { start, end: start + 7 };
    }
    case 'month':
    case 'quarter':
    case 'year': {
      const [y, m] = civilFromDays(day);
      const span = unit === 'month' ? 1 : unit === 'quarter' ? 3 : 12;
      const first = m - ((m - 1) % span);
      const next = first + span;
      return { start: daysFromCivil(y, first, 1), end: next > 12 ? daysFromCivil(y + 1, next - 12, 1) : daysFromCivil(y, next, 1) };
    }
  }
}

/** How many buckets of `unit` the days `from`..`to` (inclusive) touch: an upper bound on points. */
export function bucketSpan(from: number, to: number, unit: Resolution): number {
  if (to < from) return 0;
  switch (unit) {
    case 'day':
      return to - from + 1;
    case 'week':
      return (bucketOf(to, 'week').start - bucketOf(from, 'week').start) / 7 + 1;
    default: {
      const [y1, m1] = civilFromDays(from);
      const [y2, m2] = civilFromDays(to);
      const span = unit === 'month' ? 1 : unit === 'quarter' ? 3 : 12;
      return Math.floor((y2 * 12 + m2 - 1) / span) - Math.floor((y1 * 12 + m1 - 1) / span) + 1;
    }
  }
}

function mod(a: number, n: number): number {
  return ((a % n) + n) % n;
}
