/**
 * Answers built by the server itself, once, on their first request, then served like a stored
 * catalog object (gzip or plain, strong ETag, 304, the read Cache-Control): the OpenAPI document
 * (GET /openapi.json) and the reference page with its script (GET /docs, routes/docs-page.ts), all
 * answered from the document table (route-table/document-table.ts).
 */
import type { Context } from 'hono';
import { gzip } from '../../snapshots/codec.js';
import type { ProxyEnv } from '../env.js';
import { OPENAPI_PATH } from '../route-table/document-table.js';
import { createObjectCache } from '../serve-object/object-cache.js';
import { createObjectLoader, type ServedObject } from '../serve-object/object-loader.js';
import { respondObject } from '../serve-object/respond-object.js';

export interface BuiltAnswerOptions {
  /** Default: JSON. */
  contentType?: string;
  /** Headers of this answer only (the page's Content-Security-Policy). */
  headers?: Record<string, string>;
}

/** `build` runs on the first request; its bytes (a string as UTF-8) are gzipped and kept. */
export function createBuiltAnswer(name: string, build: () => string | Buffer, options: BuiltAnswerOptions = {}): (c: Context<ProxyEnv>) => Promise<Response> {
  const loader = createObjectLoader(createObjectCache<ServedObject>({ maxBytes: 8 * 1024 * 1024 }));
  let served: ServedObject | null = null;
  return (c) => {
    served ??= loader.remember(name, gzip(build()));
    return respondObject(c, loader, served, options);
  };
}

export function createDocumentAnswer(build: () => unknown): (c: Context<ProxyEnv>) => Promise<Response> {
  return createBuiltAnswer(OPENAPI_PATH, () => JSON.stringify(build()));
}
