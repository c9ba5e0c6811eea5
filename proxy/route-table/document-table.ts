/**
 * `GET /openapi.json`: the OpenAPI document, outside /v1, so createApp mounts this table before the
 * request path: no credential, no rate limit, no audit row. Served by routes/openapi.ts.
 */
import { headerSet } from '../openapi/headers.js';
import { responseRef } from '../openapi/responses.js';
import { route, type Route } from './route.js';

export const OPENAPI_PATH = '/openapi.json';

export function documentTable(): Route[] {
  return [
    route({
      path: OPENAPI_PATH, params: {},
      answer: { handler: (c, _request, deps) => deps.document!(c) },
      doc: { tag: 'Document', operation: () => ({
        operationId: 'getOpenApi', summary: 'This OpenAPI document',
        description: 'No credential, not rate-limited, cacheable like a catalog read (ETag, 304). The same document is docs/openapi.json in the repository.',
        security: [], status: 200, statusDescription: 'The OpenAPI 3.1 document.',
        headers: headerSet(['X-Request-Id', 'ETag', 'Cache-Control', 'Vary'], ['Content-Encoding']),
        body: { type: 'object', required: ['openapi', 'info', 'paths'], properties: { openapi: { const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } } },
        more: { 304: responseRef(304) }, errors: [405, 500],
      }) },
    }),
  ];
}
