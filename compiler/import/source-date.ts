/**
 * Release dates as public sources write them: `YYYY-MM-DD`, `YYYY/MM/DD`, an ISO instant
 * (`2026-01-29T17:00:00.0000000Z`, the day is taken as written), or a placeholder. A placeholder is
 * anything that is not a real calendar day (`---`, empty) or a day more than a year after the
 * import's as-of day (One Piece promos carry `2030/01/01`): such dates become null, never a guess.
 *
 * @example
 *   readSourceDate('1999/01/09', '2026-11-22')  // { date: '1999-01-09' }
 *   readSourceDate('---', '2026-11-22')         // { date: null, placeholder: '---' }
 *   readSourceDate('2030/01/01', '2026-11-22')  // { date: null, placeholder: '2030/01/01' }
 */
import { addDays, isDate } from '../../snapshots/dates.js';

/** How far past as-of an announced release date may be before it reads as a placeholder. */
const ANNOUNCED_DAYS = 366;

export interface SourceDate {
  date: string | null;
  /** The raw value when it was present but unusable (callers note it). */
  placeholder?: string;
}

export function readSourceDate(raw: unknown, asOf: string): SourceDate {
  if (raw === null || raw === undefined) return { date: null };
  if (typeof raw !== 'string') return { date: null, placeholder: String(raw) };
  const m = /^(\d{4})[-/](\d{2})[-/](\d{2})(?:[T ].*)?$/.exec(raw.trim());
  const date = m === null ? null : `${m[1]}-${m[2]}-${m[3]}`;
  if (date === null || !isDate(date) || date > addDays(asOf, ANNOUNCED_DAYS)) return { date: null, placeholder: raw };
  return { date };
}

/** The earliest of some dates, or null when there is none. */
export function earliest(dates: Iterable<string | null>): string | null {
  let best: string | null = null;
  for (const d of dates) if (d !== null && (best === null || d < best)) best = d;
  return best;
}

/** Today in UTC (`YYYY-MM-DD`): the default as-of day of an import. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}
