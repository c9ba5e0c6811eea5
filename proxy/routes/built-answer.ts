/**
 * Answers the server builds itself, once, on their first request, then serves like a stored catalog
 * object (gzip or plain, strong ETag, 304, the read Cache-Control): the OpenAPI document
 * (routes/openapi.ts) and the reference page with its script (routes/docs-page.ts).
 */
import type { Context } from 'hono';
import { gzip } from '../../snapshots/codec.js';
import type { ProxyEnv } from '../env.js';
import { createObjectCache } from '../serve-object/object-cache.js';
import { createObjectLoader, type ServedObject } from '../serve-object/object-loader.js';
import { respondObject } from '../serve-object/respond-object.js';

export interface BuiltAnswerOptions {
  /** Default: JSON. */
  contentType?: string;
  /** Headers of this answer's 200 only (the page's Content-Security-Policy). */
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
