/**
 * Day arithmetic of the generator. Everything is planned in whole UTC days (days since 1970-01-01)
 * and formatted only when a record is written, so no time zone or clock is ever involved.
 *
 * @example formatDay(dayOf('2026-11-20') - 1) // '2026-11-19'
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const MS_PER_DAY = 86_400_000;

/** True for a real calendar day written `YYYY-MM-DD` (2023-02-29 is not one). */
export function isRealDate(value: string): boolean {
  const m = DATE.exec(value);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

export function dayOf(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / MS_PER_DAY;
}

export function formatDay(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** `YYYY-MM-DDTHH:MM:SS.mmmZ` of a millisecond instant. */
export function formatInstant(ms: number): string {
  return new Date(ms).toISOString();
}

export function yearOf(day: number): number {
  return new Date(day * MS_PER_DAY).getUTCFullYear();
}
