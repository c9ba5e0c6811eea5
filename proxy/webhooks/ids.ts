/**
 * Identifiers and secrets of webhooks. Endpoint and delivery ids are opaque and not secret (they
 * appear in logs and in the partner's delivery log); the signing secret is 32 random bytes, shown
 * once, and stored as is because the proxy must sign with it (unlike a key, whose hash suffices).
 *
 * @example
 *   newEndpointId()   // 'whe_4fJ9kQ2mZp8x'
 *   newSecret()       // 'whsec_' + 43 base64url characters
 */
import { randomBytes } from 'node:crypto';
import { CatalogError } from '../../snapshots/errors.js';

export const ENDPOINT_ID_PATTERN = /^whe_[0-9A-Za-z_-]{16}$/;
export const DELIVERY_ID_PATTERN = /^whd_[0-9A-Za-z_-]{22}$/;
export const SECRET_PATTERN = /^whsec_[0-9A-Za-z_-]{43}$/;

export const newEndpointId = (): string => `whe_${randomBytes(12).toString('base64url')}`;
export const newDeliveryId = (): string => `whd_${randomBytes(16).toString('base64url')}`;
export const newSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

export function parseEndpointId(raw: unknown, field = 'id'): string {
  if (typeof raw !== 'string' || !ENDPOINT_ID_PATTERN.test(raw)) {
    throw new CatalogError('invalid_parameter', `${field} must be a webhook endpoint id: whe_ and 16 letters, digits, '-' or '_'`, { parameter: field });
  }
  return raw;
}
