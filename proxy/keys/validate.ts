/**
 * Checks of the values an operator gives when minting (HTTP body or CLI flags); each failure is a
 * 400 `invalid_parameter` naming the field.
 */
import { CatalogError } from '../../snapshots/errors.js';
import { isTier, TIERS, type Tier } from '../tiers.js';

// Tenant names show up in tables, logs and audit rows: printable, no spaces at the ends, bounded.
// The OpenAPI document states this same pattern (proxy/openapi/schemas-admin.ts).
export const TENANT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
export const TENANT_RULE = "1-64 characters of letters, digits, '.', '_', '@' or '-', starting with a letter or digit";

// A day that exists, as one regular expression, so the OpenAPI document can state the very rule the
// API enforces (a date such as 2026-02-30 must not roll over into March): 31-day months, 30-day
// months, February to the 28th, and the 29th of February in leap years (divisible by 4, and by 400
// for centuries).
const DAY = '\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))'
  + '|(?:\\d{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29';
const TIME = '(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,3})?)?';
const ZONE = '(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)';
const DATE_ONLY = new RegExp(`^(?:${DAY})$`);
/** `YYYY-MM-DD`, or that day, a time (seconds and milliseconds optional) and a zone. */
export const INSTANT_PATTERN = new RegExp(`^(?:${DAY})(?:T${TIME}${ZONE})?$`);
export const INSTANT_RULE = 'a date (YYYY-MM-DD) or an ISO timestamp with a zone (e.g. 2027-01-31T00:00:00Z), of a day and time that exist';

export function parseTenant(value: unknown, field = 'tenant'): string {
  if (typeof value !== 'string' || !TENANT_PATTERN.test(value)) {
    throw new CatalogError('invalid_parameter', `${field} must be ${TENANT_RULE}`, { parameter: field });
  }
  return value;
}

export function parseTier(value: unknown, field = 'tier'): Tier {
  if (typeof value !== 'string' || !isTier(value)) {
    throw new CatalogError('invalid_parameter', `${field} must be one of ${TIERS.join(', ')}`, { parameter: field });
  }
  return value;
}

/** `YYYY-MM-DD` (midnight UTC) or an ISO instant with a zone → ISO ms string. */
export function parseInstant(value: unknown, field: string): string {
  // Date.parse alone would take 2026-02-30 as 2 March: the pattern refuses days that do not exist.
  if (typeof value === 'string' && INSTANT_PATTERN.test(value)) {
    const ms = Date.parse(DATE_ONLY.test(value) ? `${value}T00:00:00.000Z` : value);
    if (Number.isFinite(ms)) return new Date(ms).toISOString();
  }
  throw new CatalogError('invalid_parameter', `${field} must be ${INSTANT_RULE}`, { parameter: field });
}

export function parseExpiry(value: unknown, nowMs: number, field = 'expiresAt'): string {
  const iso = parseInstant(value, field);
  if (Date.parse(iso) <= nowMs) throw new CatalogError('invalid_parameter', `${field} must be in the future`, { parameter: field });
  return iso;
}
