/** `GET /openapi.json` (proxy/routes/openapi.ts): this document, outside /v1, no credential. */
import { headerSet } from './headers.js';
import { responseRef } from './responses.js';
import type { Schema } from './schema-kit.js';

export const OPENAPI_PATH = '/openapi.json';

export function metaPaths(): Record<string, Schema> {
  return {
    [OPENAPI_PATH]: {
      get: {
        operationId: 'getOpenApi',
        tags: ['Document'],
        summary: 'This OpenAPI document',
        description: 'No credential, not rate-limited, cacheable like a catalog read (ETag, 304). The same document is docs/openapi.json in the repository.',
        security: [],
        responses: {
          200: {
            description: 'The OpenAPI 3.1 document.',
            headers: headerSet(['X-Request-Id', 'ETag', 'Cache-Control', 'Vary'], ['Content-Encoding']),
            content: { 'application/json': { schema: { type: 'object', required: ['openapi', 'info', 'paths'], properties: { openapi: { const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } } } } },
          },
          304: responseRef(304),
          405: responseRef(405),
          500: responseRef(500),
        },
      },
    },
  };
}
