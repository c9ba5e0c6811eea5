/**
 * The webhook routes (issue 20, docs/partners.md "Webhooks"): the operator's administration of
 * endpoints beside the key administration (internal key only, the same `/v1/admin` family), and
 * the two reads a partner makes with its bearer key: its endpoints and its delivery log.
 */
import { RATE_HEADERS, headerSet } from '../openapi/headers.js';
import type { ErrorStatus } from '../openapi/responses.js';
import { ref, type Schema } from '../openapi/schema-kit.js';
import { requireOneOf } from '../serve-object/validate.js';
import {
  answerAdminList, answerCreate, answerDelete, answerPartnerDeliveries, answerPartnerEndpoints, answerRotateSecret, webhooksOf,
} from '../webhooks/answers.js';
import { parseEndpointId } from '../webhooks/ids.js';
import { endpointIdSchema } from '../webhooks/openapi-schemas.js';
import { DELIVERY_STATUSES } from '../webhooks/store.js';
import { pathParam, queryParam } from './param.js';
import { Tenant } from './params.js';
import { route, type Route } from './route.js';

export const WEBHOOK_TAG = 'Webhooks';
const INTERNAL = [{ internalKey: [] }];
const NO_STORE = (): Record<string, Schema> => headerSet(['X-Request-Id', 'Cache-Control', 'Vary'], ['Content-Encoding']);
const PARTNER_HEADERS = (): Record<string, Schema> => headerSet(['X-Request-Id', 'Cache-Control', 'Vary'], ['Content-Encoding', 'Link', ...RATE_HEADERS]);
const ADMIN_ERRORS: ErrorStatus[] = [401, 403, 405, 429, 500];
const ONE_ERRORS: ErrorStatus[] = [400, 401, 403, 404, 405, 429, 500];
const PARTNER_ERRORS: ErrorStatus[] = [400, 401, 403, 405, 429];

const EndpointId = pathParam({
  component: 'WebhookEndpointId', name: 'id', description: 'A webhook endpoint id (`whe_` and 16 characters).',
  schema: endpointIdSchema(), check: (raw) => parseEndpointId(raw),
});
const EndpointFilter = queryParam({
  component: 'WebhookEndpointFilter', name: 'endpoint', description: 'Only the deliveries of this endpoint of yours.',
  schema: endpointIdSchema(), check: (raw) => (raw === undefined || raw === null ? undefined : parseEndpointId(raw, 'endpoint')),
});
const StatusFilter = queryParam({
  component: 'WebhookDeliveryStatus', name: 'status', description: 'Only the deliveries in this status.',
  schema: { type: 'string', enum: [...DELIVERY_STATUSES] },
  check: (raw) => (raw === undefined || raw === null ? undefined : requireOneOf(raw, DELIVERY_STATUSES, 'status')),
});

export function webhookTable(): Route[] {
  return [
    route({
      path: '/v1/admin/webhooks', method: 'post', caller: 'internal', query: 'ignored', params: {},
      body: { fields: ['tenant', 'url', 'description'] },
      answer: { handler: (c, { body }, deps) => answerCreate(c, body!, webhooksOf(deps)) },
      doc: { tag: WEBHOOK_TAG, operation: () => ({
        operationId: 'createWebhook', summary: 'Register a webhook endpoint',
        description: 'The endpoint receives a signed POST each time a new snapshot becomes current. The answer is the only time its signing secret is shown. The URL must be https:// without credentials. Internal key only.',
        security: INTERNAL,
        requestBody: { required: true, description: 'Tenant, URL and an optional description; an unknown field is 400.', content: { 'application/json': { schema: ref('WebhookCreateRequest'), example: { tenant: 'acme', url: 'https://hooks.acme.example/catalog', description: 'snapshot importer' } } } },
        status: 201, body: ref('WebhookEndpointWithSecret'), headers: NO_STORE(), errors: [400, ...ADMIN_ERRORS],
      }) },
    }),
    route({
      path: '/v1/admin/webhooks', caller: 'internal', params: { tenant: Tenant },
      answer: { handler: (c, { values }, deps) => answerAdminList(c, values.tenant, webhooksOf(deps)) },
      doc: { tag: WEBHOOK_TAG, operation: (parameters) => ({
        operationId: 'listWebhooks', summary: 'List webhook endpoints',
        description: 'Every endpoint, or a tenant\'s; never a secret. Internal key only.',
        security: INTERNAL, parameters, status: 200, body: ref('WebhookEndpointList'), headers: NO_STORE(), errors: [400, ...ADMIN_ERRORS],
      }) },
    }),
    route({
      path: '/v1/admin/webhooks/{id}', method: 'delete', caller: 'internal', query: 'ignored', params: { id: EndpointId },
      answer: { handler: (c, { values }, deps) => answerDelete(c, values.id, webhooksOf(deps)) },
      doc: { tag: WEBHOOK_TAG, operation: (parameters) => ({
        operationId: 'deleteWebhook', summary: 'Delete a webhook endpoint',
        description: 'Its pending deliveries are cancelled (an attempt already under way may still arrive); its delivery log stays readable by its tenant. Internal key only.',
        security: INTERNAL, parameters, status: 200, body: ref('WebhookEndpoint'), headers: NO_STORE(), errors: ONE_ERRORS,
      }) },
    }),
    route({
      path: '/v1/admin/webhooks/{id}/rotate-secret', method: 'post', caller: 'internal', query: 'ignored', params: { id: EndpointId },
      answer: { handler: (c, { values }, deps) => answerRotateSecret(c, values.id, webhooksOf(deps)) },
      doc: { tag: WEBHOOK_TAG, operation: (parameters) => ({
        operationId: 'rotateWebhookSecret', summary: 'Replace a webhook signing secret',
        description: 'A new secret, shown this once; every attempt from now on is signed with it, retries of earlier deliveries included. Internal key only.',
        security: INTERNAL, parameters, status: 201, body: ref('WebhookEndpointWithSecret'), headers: NO_STORE(), errors: ONE_ERRORS,
      }) },
    }),
    route({
      path: '/v1/webhooks', params: {}, paging: 20,
      answer: { handler: (c, { page }, deps) => answerPartnerEndpoints(c, page!, webhooksOf(deps)) },
      doc: { tag: WEBHOOK_TAG, operation: (parameters) => ({
        operationId: 'listMyWebhooks', summary: 'Your webhook endpoints',
        description: 'The endpoints the operator registered for the tenant of the calling key, oldest first; never a secret. API key only (other callers have no tenant: 403).',
        security: [{ apiKey: [] }], parameters, status: 200, body: ref('WebhooksEnvelope'), headers: PARTNER_HEADERS(), errors: PARTNER_ERRORS,
      }) },
    }),
    route({
      path: '/v1/webhooks/deliveries', params: { endpoint: EndpointFilter, status: StatusFilter }, paging: 20,
      answer: { handler: (c, { values, page }, deps) => answerPartnerDeliveries(c, values, page!, webhooksOf(deps)) },
      doc: { tag: WEBHOOK_TAG, operation: (parameters) => ({
        operationId: 'listMyWebhookDeliveries', summary: 'Your webhook delivery log',
        description: 'One row per snapshot announced to one of your endpoints, newest first: status, attempts, the last answer or error, and when the next attempt is due. Finished rows are kept 30 days (the operator can change it). API key only.',
        security: [{ apiKey: [] }], parameters, status: 200, body: ref('WebhookDeliveriesEnvelope'), headers: PARTNER_HEADERS(), errors: PARTNER_ERRORS,
      }) },
    }),
  ];
}
