/**
 * Key administration and the audit route (API.md §4-5, docs/auth.md), one entry each (route.ts).
 * Their answers are not catalog reads, so each is documented with its operation written out and
 * answered by its function in proxy/routes/admin-*.ts. Bearer keys reach only the audit route (the
 * gate's family check, gate/families.ts); the others need the internal key (`caller`).
 */
import { RATE_HEADERS, headerSet } from '../openapi/headers.js';
import type { ErrorStatus } from '../openapi/responses.js';
import { ref, type Schema } from '../openapi/schema-kit.js';
import { answerAudit } from '../routes/admin-audit.js';
import { adminOf, answerList, answerMint, answerRevoke, answerRotate } from '../routes/admin-keys.js';
import { KeyId, Since, Tenant, Until } from './params.js';
import { route, type Route } from './route.js';

const TAG = 'Keys and audit';
const INTERNAL = [{ internalKey: [] }];
const NO_STORE = (): Record<string, Schema> => headerSet(['X-Request-Id', 'Cache-Control', 'Vary'], ['Content-Encoding']);
const KEY_ERRORS: ErrorStatus[] = [401, 403, 405, 429, 500];
const ONE_KEY_ERRORS: ErrorStatus[] = [400, 401, 403, 404, 405, 429, 500];

/** `example` is the body of the operation's curl sample (openapi/code-samples.ts). */
const jsonBody = (schema: string, required: boolean, description: string, example: Record<string, unknown>): Schema => ({
  required, description, content: { 'application/json': { schema: ref(schema), example } },
});

export function adminTable(): Route[] {
  return [
    route({
      path: '/v1/admin/b2b-keys', method: 'post', caller: 'internal', query: 'ignored', params: {},
      body: { fields: ['tenant', 'tier', 'expiresAt'] },
      answer: { handler: (c, { body }, deps) => answerMint(c, body!, adminOf(deps)) },
      doc: { tag: TAG, operation: () => ({
        operationId: 'mintKey', summary: 'Mint a partner key',
        description: 'The answer is the only time the key is shown; only its SHA-256 is stored. Internal key only (an API key gets 403).',
        security: INTERNAL, requestBody: jsonBody('MintRequest', true, 'Tenant, tier (default free) and optional expiry; an unknown field is 400.', { tenant: 'acme', tier: 'standard', expiresAt: '2027-12-31' }),
        status: 201, body: ref('MintedKey'), headers: NO_STORE(), errors: [400, ...KEY_ERRORS],
      }) },
    }),
    route({
      path: '/v1/admin/b2b-keys', caller: 'internal', params: { tenant: Tenant },
      answer: { handler: (c, { values }, deps) => answerList(c, values.tenant, adminOf(deps)) },
      doc: { tag: TAG, operation: (parameters) => ({
        operationId: 'listKeys', summary: 'List keys',
        description: 'Every key, or a tenant\'s; never a key or a hash. Internal key only.',
        security: INTERNAL, parameters, status: 200, body: ref('KeyList'), headers: NO_STORE(), errors: [400, ...KEY_ERRORS],
      }) },
    }),
    route({
      path: '/v1/admin/b2b-keys/{id}', method: 'delete', caller: 'internal', query: 'ignored', params: { id: KeyId },
      answer: { handler: (c, { values }, deps) => answerRevoke(c, values.id, adminOf(deps)) },
      doc: { tag: TAG, operation: (parameters) => ({
        operationId: 'revokeKey', summary: 'Revoke a key',
        description: 'Takes effect on the next request in every server process; revoking twice keeps the first time. Internal key only.',
        security: INTERNAL, parameters, status: 200, body: ref('KeyRecord'), headers: NO_STORE(), errors: ONE_KEY_ERRORS,
      }) },
    }),
    route({
      path: '/v1/admin/b2b-keys/{id}/rotate', method: 'post', caller: 'internal', query: 'ignored', params: { id: KeyId },
      body: { fields: ['expiresAt'], optional: true },
      answer: { handler: (c, { values, body }, deps) => answerRotate(c, values.id, body!, adminOf(deps)) },
      doc: { tag: TAG, operation: (parameters) => ({
        operationId: 'rotateKey', summary: 'Replace a key',
        description: 'A new key for the same tenant and tier; the old one is revoked in the same transaction (a revoked key cannot be rotated: 400). Internal key only.',
        security: INTERNAL, parameters, requestBody: jsonBody('RotateRequest', false, 'Optional expiry of the new key.', { expiresAt: '2027-12-31' }),
        status: 201, body: ref('MintedKey'), headers: NO_STORE(), errors: ONE_KEY_ERRORS,
      }) },
    }),
    route({
      path: '/v1/admin/b2b-keys/{id}/audit', params: { id: KeyId, since: Since, until: Until }, paging: 20,
      answer: { handler: (c, { values, page }, deps) => answerAudit(c, { keyId: values.id, since: values.since, until: values.until }, page!, adminOf(deps)) },
      doc: { tag: TAG, operation: (parameters) => ({
        operationId: 'getKeyAudit', summary: 'Audit rows of a key',
        description: 'One row per request of the key, newest first. An API key reads the keys of its own tenant (another tenant\'s key ID is 404, like an unknown one); the internal key reads any.',
        security: [{ apiKey: [] }, ...INTERNAL], parameters,
        status: 200, body: ref('AuditEnvelope'), headers: headerSet(['X-Request-Id', 'Cache-Control', 'Vary'], ['Content-Encoding', 'Link', ...RATE_HEADERS]),
        errors: ONE_KEY_ERRORS,
      }) },
    }),
  ];
}
