/**
 * Calendar buckets of a price history: the units a series may be resampled by, on day numbers
 * (snapshots/dates.ts), so the loops over every price point stay integer arithmetic.
 *
 * @example
 *   bucketOf(19_725, 'week')        // { start: 19_723, end: 19_730 }  (ISO week: Monday to Sunday)
 *   bucketSpan(19_723, 19_754, 'month') // 2  (January and February 2024)
 */
import { civilFromDays, daysFromCivil } from '../../snapshots/dates.js';

/** Calendar units a price history may be bucketed by, finest first. */
export const RESOLUTIONS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

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
