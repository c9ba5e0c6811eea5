/** Schemas of the webhook routes and of the POST a receiver gets (docs/partners.md "Webhooks"). */
import { envelopeSchema } from '../openapi/schemas-common.js';
import { tenantSchema } from '../openapi/schemas-admin.js';
import { closed, int, nullable, oneOfValues, ref, str, timestamp, type Schema } from '../openapi/schema-kit.js';
import { MAX_DESCRIPTION_LENGTH } from './answers.js';
import { HTTPS_URL_PATTERN, MAX_URL_LENGTH } from './endpoint-url.js';
import { DELIVERY_ID_PATTERN, ENDPOINT_ID_PATTERN, SECRET_PATTERN } from './ids.js';
import { DELIVERY_STATUSES } from './store.js';
import { EVENT_TYPE } from './payload.js';

export const endpointIdSchema = (): Schema => ({ type: 'string', pattern: ENDPOINT_ID_PATTERN.source, description: 'A webhook endpoint id; not secret.' });
const deliveryId = (): Schema => ({ type: 'string', pattern: DELIVERY_ID_PATTERN.source, description: 'A delivery id, also sent in the Catalog-Delivery-Id header: the same on every attempt, so a receiver can drop a repeat.' });
// The https form operators register (endpoint-url.ts also takes http to loopback, for tests only).
const url = (): Schema => ({ type: 'string', pattern: HTTPS_URL_PATTERN.source, maxLength: MAX_URL_LENGTH, description: 'https:// URL the events are POSTed to; no user:password, no #fragment.' });
const description = (): Schema => ({
  oneOf: [{ type: 'string', maxLength: MAX_DESCRIPTION_LENGTH, description: 'A note for people (what receives it).' }, { type: 'null' }],
});
const endpointFields = () => ({
  endpointId: endpointIdSchema(), tenant: tenantSchema(), url: url(), description: description(),
  createdAt: timestamp(), secretRotatedAt: nullable(ref('Timestamp')),
});

export function webhookSchemas(): Record<string, Schema> {
  return {
    WebhookEndpoint: closed(endpointFields(), 'An endpoint as operators and its partner see it: never its secret.'),
    WebhookEndpointWithSecret: closed({
      ...endpointFields(),
      secret: { type: 'string', pattern: SECRET_PATTERN.source, description: 'The signing secret: shown this once (on create and on rotate).' },
    }),
    WebhookEndpointList: closed({ endpoints: { type: 'array', items: ref('WebhookEndpoint') } }),
    WebhookCreateRequest: {
      type: 'object', additionalProperties: false, required: ['tenant', 'url'],
      properties: { tenant: tenantSchema(), url: url(), description: description() },
    },
    WebhookDelivery: closed({
      deliveryId: deliveryId(), endpointId: endpointIdSchema(), snapshotId: str('The snapshot announced.'),
      status: oneOfValues(DELIVERY_STATUSES, '`pending` (waiting for its next attempt), `delivered` (a 2xx answer), `failed` (given up: retries spent, or 410 Gone), `cancelled` (its endpoint was deleted).'),
      attempts: int('Attempts made so far.'),
      lastStatus: nullable(int('HTTP status of the last answer.', 100)),
      lastError: nullable(str('Why the last attempt failed.')),
      createdAt: timestamp('When the snapshot was announced.'),
      lastAttemptAt: nullable(ref('Timestamp')),
      nextAttemptAt: nullable(ref('Timestamp')),
      finishedAt: nullable(ref('Timestamp')),
    }, 'One snapshot announced to one endpoint.'),
    WebhookEvent: closed({
      type: { const: EVENT_TYPE },
      deliveryId: deliveryId(), endpointId: endpointIdSchema(),
      snapshot: ref('KeptSnapshot'),
      links: closed({
        snapshot: str('GET this path for the snapshot.'),
        changes: nullable(str('GET this path for what changed since the previous snapshot.')),
        feed: str('The Atom feed of kept snapshots.'),
      }, 'Paths to append to the API base URL.'),
    }, 'The JSON body POSTed to an endpoint when a snapshot becomes current, signed in the Catalog-Signature header.'),
    WebhooksEnvelope: envelopeSchema('webhooks', ref('WebhookEndpoint'), true, 'A page of the caller\'s webhook endpoints.'),
    WebhookDeliveriesEnvelope: envelopeSchema('webhookDeliveries', ref('WebhookDelivery'), true, 'A page of the caller\'s deliveries, newest first.'),
  };
}

/** The document's `webhooks` (OpenAPI 3.1): the request a registered endpoint receives. */
export function webhookEvents(): Record<string, Schema> {
  return {
    snapshotPublished: {
      post: {
        operationId: 'snapshotPublished', summary: 'A new snapshot became current', tags: ['Webhooks'],
        // Sent by the service, not called on it: the signature authenticates it, no credential.
        security: [],
        description: 'POSTed to every endpoint of every tenant once per snapshot, signed in Catalog-Signature (`t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">`); retried with backoff until a 2xx (docs/partners.md §13).',
        parameters: [
          { name: 'Catalog-Signature', in: 'header', required: true, description: 'The timestamp and signature; verify before trusting the body.', schema: { type: 'string', pattern: '^t=\\d+,v1=[0-9a-f]{64}$' } },
          { name: 'Catalog-Delivery-Id', in: 'header', required: true, description: 'The delivery id, also in the body.', schema: { type: 'string' } },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookEvent') } } },
        responses: { '2XX': { description: 'Delivered; any other answer (or none within 10 s) is retried, 410 ends the delivery.' } },
      },
    },
  };
}
