/**
 * GET /openapi.json: the OpenAPI document (proxy/openapi/), outside /v1, so createApp mounts it
 * before the gate: no credential, no rate limit, no audit row. Served like a stored catalog object
 * (gzip or plain JSON, strong ETag, 304, the read Cache-Control), built and compressed once, on the
 * first request.
 */
import { Hono } from 'hono';
import { gzip } from '../../snapshots/codec.js';
import { CatalogError } from '../../snapshots/errors.js';
import type { ProxyEnv } from '../env.js';
import { PARTNER_ALLOW } from '../gate/methods.js';
import { buildOpenApiDocument } from '../openapi/document.js';
import { OPENAPI_PATH } from '../openapi/routes-meta.js';
import { createObjectCache } from '../serve-object/object-cache.js';
import { createObjectLoader, type ServedObject } from '../serve-object/object-loader.js';
import { respondObject } from '../serve-object/respond-object.js';

export function createOpenApiRoutes(build: () => unknown = buildOpenApiDocument): Hono<ProxyEnv> {
  const loader = createObjectLoader(createObjectCache<ServedObject>({ maxBytes: 8 * 1024 * 1024 }));
  let served: ServedObject | null = null;
  const app = new Hono<ProxyEnv>();
  app.get(OPENAPI_PATH, (c) => {
    c.set('routePattern', OPENAPI_PATH);
    served ??= loader.remember(OPENAPI_PATH, gzip(JSON.stringify(build())));
    return respondObject(c, loader, served);
  });
  app.all(OPENAPI_PATH, (c) => {
    throw new CatalogError('method_not_allowed', `${c.req.method} is not allowed on this path.`, { allow: PARTNER_ALLOW });
  });
  return app;
}
