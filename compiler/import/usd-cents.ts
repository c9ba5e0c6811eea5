/**
 * Dollar amounts as sources write them ("65.06", "0.5", 12) to integer cents, or null when the
 * value is missing or not a non-negative amount.
 *
 * @example usdToCents('65.06') // 6506;  usdToCents('') // null;  usdToCents('-1') // null
 */
export function usdToCents(value: unknown): number | null {
  const s = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim().replace(/^\$/, '') : '';
  if (!/^\d+(\.\d+)?$/.test(s)) return null;
  const cents = Math.round(Number(s) * 100);
  return Number.isSafeInteger(cents) ? cents : null;
}
