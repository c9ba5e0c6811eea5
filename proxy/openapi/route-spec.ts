/**
 * A catalog read route as the document describes it. Every partner GET route is one `ReadRoute`
 * value in routes-catalog.ts; `readOperation` turns it into the operation with the responses every
 * read shares (200 envelope, 304, and the errors of API.md §6), so documenting a new route is one
 * entry there (and `npm run openapi` to capture its example).
 */
import type { DocumentKind } from '../../snapshots/envelope.js';
import { envelopeSchema } from './schemas-common.js';
import type { OpenApiExamples } from './examples.js';
import { RATE_HEADERS, headerSet } from './headers.js';
import { responseRef, type ErrorStatus } from './responses.js';
import type { Schema } from './schema-kit.js';

export interface ReadRoute {
  /** OpenAPI path (`/v1/cards/{id}`). */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  /** `partner`: a credential is needed (API key, session, internal key or first-party page); `public`: none. */
  access: 'partner' | 'public';
  /** Parameter component names, path parameters first. */
  parameters: string[];
  kind: DocumentKind;
  /** Schema of `data` (of one item for a list). */
  data: Schema;
  list: boolean;
  /** Component name of the envelope schema. */
  envelope: string;
  /** A request answered 200 from the example catalog: its body becomes the example. */
  example: string;
  /** A request answered 404 from the example catalog; absent when the route cannot be 404. */
  notFound?: string;
}

export const PARTNER_SECURITY = [{ apiKey: [] }, { session: [] }, { internalKey: [] }];
/** The showcase needs no credential; a credential that is sent is still checked. */
export const PUBLIC_SECURITY = [{}, ...PARTNER_SECURITY];

export function readEnvelopeSchema(route: ReadRoute): Schema {
  return envelopeSchema(route.kind, route.data, route.list, `The ${route.list ? 'list page' : 'document'} of ${route.path}.`);
}

export function readOperation(route: ReadRoute, examples: OpenApiExamples): Schema {
  const example = examples.operations[route.operationId];
  const errors: ErrorStatus[] = [400, 401, ...(route.notFound ? [404 as const] : []), 405, 429, 500, 503];
  const headers = headerSet(
    ['X-Request-Id', 'ETag', 'Cache-Control', 'Vary', 'X-Snapshot-Id'],
    ['Content-Encoding', ...(route.list ? ['Link'] : []), ...RATE_HEADERS],
  );
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    description: `${route.description}\n\nAlso answers HEAD (the same headers, no body).`,
    security: route.access === 'public' ? PUBLIC_SECURITY : PARTNER_SECURITY,
    parameters: route.parameters.map((name) => ({ $ref: `#/components/parameters/${name}` })),
    responses: {
      200: {
        description: `An envelope of kind \`${route.kind}\`${route.list ? ' with a page block' : ''}.`,
        headers,
        content: {
          'application/json': {
            schema: { $ref: `#/components/schemas/${route.envelope}` },
            ...(example === undefined ? {} : { examples: { [route.operationId]: { summary: example.request, value: example.body } } }),
          },
        },
      },
      304: responseRef(304),
      ...Object.fromEntries(errors.map((status) => [status, responseRef(status)])),
    },
  };
}
