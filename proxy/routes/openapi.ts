/**
 * The answer of GET /openapi.json (route-table/document-table.ts): the OpenAPI document
 * (proxy/openapi/), served like a stored catalog object (gzip or plain JSON, strong ETag, 304, the
 * read Cache-Control), built and compressed once, on the first request.
 */
import type { Context } from 'hono';
import { gzip } from '../../snapshots/codec.js';
import type { ProxyEnv } from '../env.js';
import { OPENAPI_PATH } from '../route-table/document-table.js';
import { createObjectCache } from '../serve-object/object-cache.js';
import { createObjectLoader, type ServedObject } from '../serve-object/object-loader.js';
import { respondObject } from '../serve-object/respond-object.js';

export function createDocumentAnswer(build: () => unknown): (c: Context<ProxyEnv>) => Promise<Response> {
  const loader = createObjectLoader(createObjectCache<ServedObject>({ maxBytes: 8 * 1024 * 1024 }));
  let served: ServedObject | null = null;
  return (c) => {
    served ??= loader.remember(OPENAPI_PATH, gzip(JSON.stringify(build())));
    return respondObject(c, loader, served);
  };
}
