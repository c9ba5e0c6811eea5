/**
 * Date checks of the source format. A date is `YYYY-MM-DD` (a real calendar day, UTC); an
 * instant is `YYYY-MM-DDTHH:MM:SS.mmmZ`, the one timestamp shape of the API (API.md §2.3).
 *
 * @example
 *   isDate('2024-02-29')            // true
 *   isDate('2023-02-29')            // false: the pattern matches but the day does not exist
 *   isInstant('2024-05-01T10:00:00.000Z') // true
 *   dayNumber('1970-01-02')         // 1
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
const MS_PER_DAY = 86_400_000;

export function isDate(value: string): boolean {
  const m = DATE.exec(value);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // Round-trip through Date.UTC: it silently rolls 2023-02-30 over to March, so compare back.
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

export function isInstant(value: string): boolean {
  const m = INSTANT.exec(value);
  return m !== null && isDate(m[1]);
}

/** Days since 1970-01-01 of a valid `YYYY-MM-DD`. */
export function dayNumber(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / MS_PER_DAY;
}

/** The `YYYY-MM-DD` that is `days` after a valid date. */
export function addDays(date: string, days: number): string {
  return new Date((dayNumber(date) + days) * MS_PER_DAY).toISOString().slice(0, 10);
}
