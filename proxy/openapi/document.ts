/**
 * The OpenAPI 3.1 document of the proxy, built from the route tables (proxy/route-table/), the
 * health probes (routes-snapshot.ts) and the shared components. `GET /openapi.json` serves it and `npm run openapi` writes it to docs/openapi.json; a
 * test checks the file equals what this builds, lints it, and validates real responses of every
 * route against it.
 *
 * @example
 *   const doc = buildOpenApiDocument(committedExamples());
 *   doc.paths['/v1/cards/{id}'].get.operationId   // 'getCard'
 */
import { API_VERSION } from '../../snapshots/envelope.js';
import { INTERNAL_KEY_HEADER } from '../gate/internal.js';
import { SESSION_COOKIE } from '../gate/session.js';
import { addCurlSamples } from './code-samples.js';
import { committedExamples, type OpenApiExamples } from './examples.js';
import { headerComponents } from './headers.js';
import { parameterComponents } from './parameters.js';
import { responseComponents } from './responses.js';
import { partnerRoutes } from '../route-table/table.js';
import type { Route } from '../route-table/route.js';
import { readEnvelopeSchema, selectionSchemas } from './route-spec.js';
import { adminSchemasWithEnvelope } from './routes-admin.js';
import { documentTable } from '../route-table/document-table.js';
import { HEALTH_TAG, SNAPSHOT_TAG, healthPaths } from './routes-snapshot.js';
import { snapshotSchemas, snapshotSchemasWithEnvelope } from './schemas-snapshot.js';
import { adminSchemas } from './schemas-admin.js';
import { webhookEvents, webhookSchemas } from '../webhooks/openapi-schemas.js';
import { WEBHOOK_TAG } from '../route-table/webhook-table.js';
import { commonSchemas } from './schemas-common.js';
import { documentSchemas } from './schemas-documents.js';
import { listSchemas } from './schemas-lists.js';
import type { Schema } from './schema-kit.js';
import { readRoutes, tablePaths } from './table-paths.js';

export type OpenApiDocument = Schema & { paths: Record<string, Record<string, Schema>> };

const DESCRIPTION = `Read-only partner API for collectibles: trading cards (MTG, Pokémon, Lorcana, One Piece), figures,
sets, MTG oracle concepts, artists, prices with history and currency conversions, search, feeds,
pull-rate statistics and a catalog summary. Every document is pre-rendered into an immutable snapshot.

- Every \`/v1\` route needs \`Authorization: Bearer <key>\` except the public showcase \`/v1/u/...\`.
  Without a valid credential every \`/v1\` path, known or not, is 401. Keys are minted by the operator
  (docs/partners.md).
- Every 200 body is an envelope \`{ apiVersion, kind, schemaVersion, asOf, data, page, warnings }\`;
  money is integer cents (USD unless the field name has a currency suffix); timestamps are UTC with
  milliseconds; absent data is \`null\`, never a missing key.
- Reads are cacheable (\`Cache-Control: public, s-maxage=300, stale-while-revalidate=3600\`, strong
  \`ETag\`, \`If-None-Match\` gives 304); errors are \`no-store\`.
- Every API-key response carries \`RateLimit\` and \`RateLimit-Policy\`; over the limit: 429 with \`Retry-After\`.
- Every response carries \`X-Request-Id\`; every error body is \`{ error, message, requestId }\`.
- Any method a path does not list is 405 with \`Allow\`. API keys on \`/v1/me\`, \`/v1/observations\` and
  \`/v1/admin\` (but the audit route) are 403. Paths not listed here are 404 (after the 401 check on \`/v1\`).
- Snapshot files and bulk files carry \`Cache-Control: public, no-cache\` (they change at every publish);
  downloads take \`Range\` (206, or 416 past the end) and \`If-Range\`. \`snapshot=<id>\` pins a kept
  snapshot; one no longer kept is 410 \`gone\`.
- Two answers come from the HTTP server before a request reaches the API, so no operation lists them;
  their body is the same error JSON, sent with \`Connection: close\`: 408 \`request_timeout\` (the request
  line and headers took over 10 s, or the whole request over 30 s) and 431 \`headers_too_large\` (request
  line and headers over 16 KiB). A URL over 8 KiB or bytes that are not HTTP/1.1 are 400 \`invalid_parameter\`
  the same way.`;

const TAGS = [
  { name: 'Cards, figures and sets', description: 'Entity documents and the lists of a set, artist or figure series.' },
  { name: 'Feeds', description: 'Trending, recent and the discover feeds.' },
  { name: 'Search', description: 'Full-text search (docs/search.md).' },
  { name: 'Public showcase', description: 'Users who opted in; no credential needed.' },
  { name: SNAPSHOT_TAG, description: 'The snapshot itself: its manifest and signature, what changed, single stored objects and bulk files, for mirrors and bulk consumers (docs/mirroring.md).' },
  { name: 'Keys and audit', description: 'Operator routes (X-Service-Internal-Key) and the audit rows of a key.' },
  { name: WEBHOOK_TAG, description: 'Signed POSTs to a partner\'s HTTPS endpoints when a new snapshot becomes current: the operator registers endpoints, a partner reads its endpoints and delivery log (docs/partners.md).' },
  { name: 'Document', description: 'This OpenAPI document, and the reference page (GET /docs) that renders it in a browser.' },
  { name: HEALTH_TAG, description: 'Probes for load balancers and orchestrators: outside `/v1`, no credential.' },
];

/** `table`: the partner routes the app serves (proxy/route-table/), whose path items come first. */
export function buildOpenApiDocument(committed: OpenApiExamples = committedExamples(), table: readonly Route[] = partnerRoutes()): OpenApiDocument {
  // A copy: the document is handed out, and must not share mutable values with the examples.
  const examples = structuredClone(committed);
  const envelopes: Record<string, Schema> = {};
  for (const route of readRoutes(table)) envelopes[route.envelope] = readEnvelopeSchema(route);
  Object.assign(envelopes, selectionSchemas(readRoutes(table)));
  const paths = tablePaths([...table, ...documentTable()], examples);
  Object.assign(paths, healthPaths(examples));
  addCurlSamples(paths, examples);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Collectibles partner API',
      version: `${API_VERSION}`,
      summary: 'Catalog, prices and search for trading cards and collectible figures.',
      description: DESCRIPTION,
      license: { name: 'Proprietary: for partners under contract', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'The server that sent this document.' }],
    tags: TAGS,
    paths,
    webhooks: webhookEvents(),
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'A partner key `rxk_` + 32 base62 characters. Counted against its tier and audited.' },
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'Signed session cookie of the service\'s own apps (not for partners).' },
        internalKey: { type: 'apiKey', in: 'header', name: INTERNAL_KEY_HEADER, description: 'The operator secret (not for partners).' },
      },
      schemas: { ...commonSchemas(), ...documentSchemas(), ...listSchemas(), ...adminSchemas(), ...snapshotSchemas(),
        ...envelopes, ...adminSchemasWithEnvelope(), ...snapshotSchemasWithEnvelope(), ...webhookSchemas() },
      parameters: parameterComponents(table),
      headers: headerComponents(),
      responses: responseComponents(examples),
    },
  };
}
