/**
 * Calendar days of the contract (API.md §2.3): a date is `YYYY-MM-DD`, a real calendar day in UTC;
 * an instant is `YYYY-MM-DDTHH:MM:SS.mmmZ`, the one timestamp shape of the API. Arithmetic is done
 * on day numbers (whole days since 1970-01-01), so no time zone or clock is ever involved; the
 * generator plans in them, the source checks and the importers step through them, the renderers
 * bucket prices by them.
 *
 * Day numbers are on the renderers' hot path: a card compile touches every price point of every
 * series at five ranges (~500,000 renders per 100k cards), so dates are parsed once per series and
 * every loop works on integers; strings are made again only for the few points a document keeps.
 * The conversions are Howard Hinnant's `days_from_civil` / `civil_from_days`
 * (https://howardhinnant.github.io/date_algorithms.html): integer arithmetic, no Date object.
 *
 * @example
 *   isDate('2024-02-29')                    // true
 *   isDate('2023-02-29')                    // false: the pattern matches but the day does not exist
 *   isInstant('2024-05-01T10:00:00.000Z')   // true
 *   dayNumber('1970-01-02')                 // 1
 *   dayString(19_723)                       // '2024-01-01'
 *   dayTimestamp(19_723)                    // '2024-01-01T00:00:00.000Z'
 *   addDays('2024-02-28', 2)                // '2024-03-01'
 *   yearOf(19_723)                          // 2024
 */
import { CatalogError } from './errors.js';

export const MS_PER_DAY = 86_400_000;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/**
 * True for a real calendar day written `YYYY-MM-DD` (2023-02-29 is not one). Years before 0100 are
 * refused too: Date.UTC reads 0-99 as 1900-1999, so they never round-trip.
 *
 * @example isDate('2024-02-29') // true;  isDate('2024-02-30') // false
 */
export function isDate(value: string): boolean {
  const m = DATE.exec(value);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // Round-trip through Date.UTC: it silently rolls 2023-02-30 over to March, so compare back.
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/**
 * True for `YYYY-MM-DDTHH:MM:SS.mmmZ` of a day that exists.
 *
 * @example isInstant('2024-05-01T10:00:00.000Z') // true;  isInstant('2024-05-01T10:00:00Z') // false
 */
export function isInstant(value: string): boolean {
  const m = INSTANT.exec(value);
  return m !== null && isDate(m[1]);
}

/**
 * Day number of a `YYYY-MM-DD` date. Throws `invalid_source` on anything else; it checks the shape
 * only (cheap, on the hot path): whether the day exists is isDate's job, done when the source is read.
 *
 * @example dayNumber('1970-01-02') // 1
 */
export function dayNumber(date: string): number {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  if (date.length !== 10 || date[4] !== '-' || date[7] !== '-' || !(m >= 1 && m <= 12 && d >= 1 && d <= 31) || !Number.isInteger(y)) {
    throw new CatalogError('invalid_source', `not a YYYY-MM-DD date: ${JSON.stringify(date)}`, { value: date });
  }
  return daysFromCivil(y, m, d);
}

/**
 * `YYYY-MM-DD` of a day number; the year has four digits, as `toISOString` writes years 0-9999.
 *
 * @example dayString(19_723) // '2024-01-01'
 */
export function dayString(day: number): string {
  const [y, m, d] = civilFromDays(day);
  return `${y >= 1000 ? y : String(y).padStart(4, '0')}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`;
}

/**
 * The `YYYY-MM-DD` that is `days` after a date (before it when negative).
 *
 * @example addDays('2024-02-28', 2) // '2024-03-01';  addDays('2024-01-01', -1) // '2023-12-31'
 */
export function addDays(date: string, days: number): string {
  return dayString(dayNumber(date) + days);
}

/**
 * Calendar year of a day number.
 *
 * @example yearOf(19_723) // 2024
 */
export function yearOf(day: number): number {
  return civilFromDays(day)[0];
}

/**
 * Memo of dayTimestamp. Formatting is most of a card render's cost (~230 points per card over its
 * five ranges, mostly the same few hundred days across the whole catalog), so the strings are made
 * once. It memoizes a pure function, so nothing can observe it; MAX_MEMO_DAYS bounds it (about 80
 * years of distinct days) and it simply stops growing past that.
 */
const timestampMemo = new Map<number, string>();
const MAX_MEMO_DAYS = 30_000;

/**
 * API timestamp (`YYYY-MM-DDTHH:MM:SS.mmmZ`, midnight UTC) of a day number.
 *
 * @example dayTimestamp(19_723) // '2024-01-01T00:00:00.000Z'
 */
export function dayTimestamp(day: number): string {
  let ts = timestampMemo.get(day);
  if (ts === undefined) {
    ts = `${dayString(day)}T00:00:00.000Z`;
    if (timestampMemo.size < MAX_MEMO_DAYS) timestampMemo.set(day, ts);
  }
  return ts;
}

/**
 * API timestamp of a millisecond instant.
 *
 * @example formatInstant(86_400_000 + 1) // '1970-01-02T00:00:00.001Z'
 */
export function formatInstant(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * Day number of a year, month (1-12) and day (1-31).
 *
 * @example daysFromCivil(1970, 1, 2) // 1
 */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = month > 2 ? month - 3 : month + 9;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/**
 * [year, month 1-12, day 1-31] of a day number.
 *
 * @example civilFromDays(19_723) // [2024, 1, 1]
 */
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
