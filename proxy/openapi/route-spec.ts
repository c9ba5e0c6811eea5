/**
 * How a route enters the document.
 *
 * - A partner route is an entry of the route table (proxy/route-table/): a catalog read (an
 *   enveloped JSON document or list page) becomes a `ReadRoute` (table-paths.ts) and `readOperation`
 *   gives it the responses every read shares (200 envelope, 304, and the errors of API.md §6);
 *   another one states its operation with `customOperation`.
 * - Any other route of a table (snapshot files, key administration, this document) states its
 *   operation, which `customOperation` completes; the health probes, outside the tables, are in
 *   routes-snapshot.ts, whose paths document.ts merges.
 * - A new error status or header goes into responses.ts / headers.ts first.
 *
 * Then `npm run openapi` captures the example (capture-examples.ts makes the request) and rewrites
 * docs/openapi.json; test/openapi/ fails until the document, the examples and the app agree.
 */
import type { DocumentKind } from '../../snapshots/envelope.js';
import { envelopeSchema } from './schemas-common.js';
import type { OpenApiExamples } from './examples.js';
import { RATE_HEADERS, headerSet } from './headers.js';
import { responseRef, type ErrorStatus } from './responses.js';
import type { Schema } from './schema-kit.js';

export interface CustomOperation {
  operationId: string;
  summary: string;
  description: string;
  security: Schema[];
  /** Parameter component names, or parameter objects (a `$ref` or one written out). */
  parameters?: Array<string | Schema>;
  requestBody?: Schema;
  /** The success status and its body (one media type) and headers. */
  status: number;
  statusDescription?: string;
  mediaType?: string;
  body: Schema;
  headers: Record<string, Schema>;
  errors: ErrorStatus[];
  /** Other documented responses by status (e.g. 304, 206), as response objects or references. */
  more?: Record<string, Schema>;
}

/** An operation written out; its success example is the captured answer of `operationId`, if any. */
export function customOperation(tag: string, op: CustomOperation, examples: OpenApiExamples): Schema {
  const example = examples.operations[op.operationId];
  return {
    operationId: op.operationId,
    tags: [tag],
    summary: op.summary,
    description: op.description,
    security: op.security,
    ...(op.parameters ? { parameters: op.parameters.map((p) => (typeof p === 'string' ? { $ref: `#/components/parameters/${p}` } : p)) } : {}),
    ...(op.requestBody ? { requestBody: op.requestBody } : {}),
    responses: {
      [op.status]: {
        description: op.statusDescription ?? (op.status === 201 ? 'Created.' : 'OK.'),
        headers: op.headers,
        content: {
          [op.mediaType ?? 'application/json']: {
            schema: op.body,
            ...(example === undefined ? {} : { examples: { [op.operationId]: { summary: example.request, value: example.body } } }),
          },
        },
      },
      ...op.more,
      ...Object.fromEntries(op.errors.map((status) => [status, responseRef(status)])),
    },
  };
}

export interface ReadRoute {
  /** OpenAPI path (`/v1/cards/{id}`). */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  /** `partner`: a credential is needed (API key, session, internal key or first-party page); `public`: none. */
  access: 'partner' | 'public';
  /** As the operation lists them (route-table/param.ts `parameterRef`), path parameters first. */
  parameters: Schema[];
  kind: DocumentKind;
  /** Schema of `data` (of one item for a list). */
  data: Schema;
  list: boolean;
  /** Component name of the envelope schema (`CardEnvelope` for kind `card`). */
  envelope: string;
  /** A request answered 200 from the example catalog: its body becomes the example. */
  example: string;
  /** A request answered 404 from the example catalog; absent when the route cannot be 404. */
  notFound?: string;
  /** Takes `snapshot=<id>` (an as-of read), so it can be 410 `gone`. */
  asOf: boolean;
  /** Takes `fields` and `view` (serve-object/selection.ts): the item fields it can select, and whether `view=ids` applies. */
  select?: { item: string; fields: readonly string[]; ids: boolean; properties: Map<string, Schema[]> };
}

export const PARTNER_SECURITY = [{ apiKey: [] }, { session: [] }, { internalKey: [] }];
/** The showcase needs no credential; a credential that is sent is still checked. */
export const PUBLIC_SECURITY = [{}, ...PARTNER_SECURITY];

export function readEnvelopeSchema(route: ReadRoute): Schema {
  return envelopeSchema(route.kind, selectedItem(route), route.list, `The ${route.list ? 'list page' : 'document'} of ${route.path}.`);
}

/**
 * A list item as `fields` or `view=ids` may send it, besides the whole item: `<Item>Selection`, an
 * object with some of the item's properties, typed as in the item, none required
 * (selectionSchemas). Both shapes are objects with the same property names, so a generated client
 * reads `item.id` or `item.name` on either.
 */
function selectedItem(route: ReadRoute): Schema {
  if (route.select === undefined) return route.data;
  return { anyOf: [route.data, { $ref: `#/components/schemas/${route.select.item}Selection` }] };
}

/** The `<Item>Selection` component of every item schema the read routes select from. */
export function selectionSchemas(routes: readonly ReadRoute[]): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const r of routes) {
    if (r.select === undefined) continue;
    const properties: Record<string, Schema> = {};
    for (const [name, schemas] of r.select.properties) properties[name] = schemas.length === 1 ? schemas[0] : { anyOf: schemas };
    out[`${r.select.item}Selection`] = {
      type: 'object', additionalProperties: false, properties,
      description: `An item of ${r.select.item} as \`fields\` sends it (the fields asked for that the item has)${r.select.ids ? ', or as `view=ids` sends it (`id` alone)' : ''}.`,
    };
  }
  return out;
}

export function readOperation(route: ReadRoute, examples: OpenApiExamples): Schema {
  return customOperation(route.tag, {
    operationId: route.operationId,
    summary: route.summary,
    description: `${route.description}\n\nAlso answers HEAD (the same headers, no body).`,
    security: route.access === 'public' ? PUBLIC_SECURITY : PARTNER_SECURITY,
    parameters: route.parameters,
    status: 200,
    statusDescription: `An envelope of kind \`${route.kind}\`${route.list ? ' with a page block' : ''}.`,
    body: { $ref: `#/components/schemas/${route.envelope}` },
    headers: headerSet(
      ['X-Request-Id', 'ETag', 'Cache-Control', 'Vary', 'X-Snapshot-Id'],
      ['Content-Encoding', ...(route.list ? ['Link'] : []), ...RATE_HEADERS],
    ),
    more: { 304: responseRef(304) },
    errors: [400, 401, ...(route.notFound ? [404 as const] : []), 405, ...(route.asOf ? [410 as const] : []), 429, 500, 503],
  }, examples);
}
