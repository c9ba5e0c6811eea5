/**
 * Checks of the values an operator gives when minting (HTTP body or CLI flags); each failure is a
 * 400 `invalid_parameter` naming the field.
 */
import { CatalogError } from '../../snapshots/errors.js';
import { isTier, TIERS, type Tier } from '../tiers.js';

// Tenant names show up in tables, logs and audit rows: printable, no spaces at the ends, bounded.
const TENANT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

export function parseTenant(value: unknown, field = 'tenant'): string {
  if (typeof value !== 'string' || !TENANT_PATTERN.test(value)) {
    throw new CatalogError('invalid_parameter', `${field} must be 1-64 characters of letters, digits, '.', '_', '@' or '-', starting with a letter or digit`, { parameter: field });
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
  if (typeof value === 'string' && (DATE_ONLY.test(value) || INSTANT.test(value))) {
    const ms = Date.parse(DATE_ONLY.test(value) ? `${value}T00:00:00.000Z` : value);
    if (Number.isFinite(ms)) return new Date(ms).toISOString();
  }
  throw new CatalogError('invalid_parameter', `${field} must be a date (YYYY-MM-DD) or an ISO timestamp with a zone (e.g. 2027-01-31T00:00:00Z)`, { parameter: field });
}

export function parseExpiry(value: unknown, nowMs: number, field = 'expiresAt'): string {
  const iso = parseInstant(value, field);
  if (Date.parse(iso) <= nowMs) throw new CatalogError('invalid_parameter', `${field} must be in the future`, { parameter: field });
  return iso;
}
