/**
 * Key administration and the audit route (proxy/routes/admin-*.ts, docs/auth.md): their answers are
 * not catalog reads, so each is written out with customOperation rather than the read template.
 */
import { envelopeSchema } from './schemas-common.js';
import type { OpenApiExamples } from './examples.js';
import { RATE_HEADERS, headerSet } from './headers.js';
import { customOperation } from './route-spec.js';
import type { ErrorStatus } from './responses.js';
import { ref, type Schema } from './schema-kit.js';

const TAG = 'Keys and audit';
const INTERNAL = [{ internalKey: [] }];

const jsonBody = (schema: string, required: boolean, description: string): Schema => ({
  required, description, content: { 'application/json': { schema: ref(schema) } },
});

export function adminPaths(examples: OpenApiExamples): Record<string, Schema> {
  const noStore = headerSet(['X-Request-Id', 'Cache-Control', 'Vary'], ['Content-Encoding']);
  const keyErrors: ErrorStatus[] = [401, 403, 405, 429, 500];
  return {
    '/v1/admin/b2b-keys': {
      post: customOperation(TAG, {
        operationId: 'mintKey', summary: 'Mint a partner key',
        description: 'The answer is the only time the key is shown; only its SHA-256 is stored. Internal key only (an API key gets 403).',
        security: INTERNAL, requestBody: jsonBody('MintRequest', true, 'Tenant, tier (default free) and optional expiry; an unknown field is 400.'),
        status: 201, body: ref('MintedKey'), headers: noStore, errors: [400, ...keyErrors],
      }, examples),
      get: customOperation(TAG, {
        operationId: 'listKeys', summary: 'List keys',
        description: 'Every key, or a tenant\'s; never a key or a hash. Internal key only.',
        security: INTERNAL, parameters: ['Tenant'], status: 200, body: ref('KeyList'), headers: noStore, errors: [400, ...keyErrors],
      }, examples),
    },
    '/v1/admin/b2b-keys/{id}': {
      delete: customOperation(TAG, {
        operationId: 'revokeKey', summary: 'Revoke a key',
        description: 'Takes effect on the next request in every server process; revoking twice keeps the first time. Internal key only.',
        security: INTERNAL, parameters: ['KeyId'], status: 200, body: ref('KeyRecord'), headers: noStore, errors: [400, 401, 403, 404, 405, 429, 500],
      }, examples),
    },
    '/v1/admin/b2b-keys/{id}/rotate': {
      post: customOperation(TAG, {
        operationId: 'rotateKey', summary: 'Replace a key',
        description: 'A new key for the same tenant and tier; the old one is revoked in the same transaction (a revoked key cannot be rotated: 400). Internal key only.',
        security: INTERNAL, parameters: ['KeyId'], requestBody: jsonBody('RotateRequest', false, 'Optional expiry of the new key.'),
        status: 201, body: ref('MintedKey'), headers: noStore, errors: [400, 401, 403, 404, 405, 429, 500],
      }, examples),
    },
    '/v1/admin/b2b-keys/{id}/audit': {
      get: customOperation(TAG, {
        operationId: 'getKeyAudit', summary: 'Audit rows of a key',
        description: 'One row per request of the key, newest first. An API key reads the keys of its own tenant (another tenant\'s key ID is 404, like an unknown one); the internal key reads any.',
        security: [{ apiKey: [] }, ...INTERNAL], parameters: ['KeyId', 'Since', 'Until', 'Page', 'Limit20'],
        status: 200, body: ref('AuditEnvelope'), headers: headerSet(['X-Request-Id', 'Cache-Control', 'Vary'], ['Content-Encoding', 'Link', ...RATE_HEADERS]),
        errors: [400, 401, 403, 404, 405, 429, 500],
      }, examples),
    },
  };
}

export function adminSchemasWithEnvelope(): Record<string, Schema> {
  return { AuditEnvelope: envelopeSchema('audit', ref('AuditRow'), true, 'Audit rows of a key, newest first.') };
}
