/** Schemas of key administration and the audit route (docs/auth.md). */
import { INSTANT_PATTERN, TENANT_PATTERN, TENANT_RULE } from '../keys/validate.js';
import { TIERS } from '../tiers.js';
import { closed, int, nullable, oneOfValues, ref, str, timestamp, type Schema } from './schema-kit.js';

const keyId = (): Schema => ({ type: 'string', pattern: '^[0-9A-Za-z]{8}$', description: 'The first 8 characters after `rxk_`; not secret.' });
/** The tenant rule of proxy/keys/validate.ts, which the API enforces: 1-64 characters, the first a letter or digit. */
export const tenantSchema = (): Schema => ({ type: 'string', pattern: TENANT_PATTERN.source, description: `A tenant name: ${TENANT_RULE}.` });
/** `YYYY-MM-DD` or an ISO timestamp with a zone, of a day and time that exist (proxy/keys/validate.ts). */
export const instantSchema = (description: string): Schema => ({ type: 'string', pattern: INSTANT_PATTERN.source, description });
const tenant = tenantSchema;
const expiry = (): Schema => ({
  oneOf: [instantSchema('A future `YYYY-MM-DD` (midnight UTC) or ISO timestamp with a zone (`2027-01-31T00:00:00Z`); a day that does not exist (2027-02-30) is 400.'), { type: 'null' }],
});

export function adminSchemas(): Record<string, Schema> {
  return {
    Tier: oneOfValues(TIERS, 'Rate-limit tier.'),
    KeyRecord: closed({
      keyId: keyId(), tenant: tenant(), tier: ref('Tier'), createdAt: timestamp(),
      expiresAt: nullable(ref('Timestamp')), revokedAt: nullable(ref('Timestamp')),
      replacedBy: nullable(keyId()),
    }, 'A key as operators see it: never the key or its hash.'),
    MintedKey: closed({
      key: { type: 'string', pattern: '^rxk_[0-9A-Za-z]{32}$', description: 'The key itself: shown this once, only its hash is stored.' },
      keyId: keyId(), tenant: tenant(), tier: ref('Tier'), createdAt: timestamp(), expiresAt: nullable(ref('Timestamp')),
    }),
    KeyList: closed({ keys: { type: 'array', items: ref('KeyRecord') } }),
    MintRequest: {
      type: 'object', additionalProperties: false, required: ['tenant'],
      properties: { tenant: tenant(), tier: { ...ref('Tier'), description: 'Default `free`.' }, expiresAt: expiry() },
    },
    RotateRequest: {
      type: 'object', additionalProperties: false,
      properties: { expiresAt: expiry() },
    },
    AuditRow: closed({
      apiKeyId: keyId(), tenantName: tenant(),
      route: str('Route pattern (`/v1/cards/:id`), or `(unmatched)` when no route answered.'),
      status: int('HTTP status sent.', 100), timestamp: timestamp('When the request arrived.'),
      requestId: { type: 'string', format: 'uuid' }, path: str('Path without the query string.'),
      bytes: nullable(int('Response body length, when known.')), durationMs: { type: 'number', minimum: 0 },
      snapshotId: nullable(str()),
    }, 'One request of a key.'),
  };
}
