/**
 * The public showcase (API.md §4): GET /v1/u/:handle and GET /v1/u/:handle/binders (a list, default
 * limit 100). Only users who opted in exist in a snapshot, so any other handle is a plain 404,
 * indistinguishable from one that was never taken.
 */
import type { Hono } from 'hono';
import { showcaseKey } from '../../snapshots/keys.js';
import type { ProxyEnv } from '../env.js';
import { parseListParams, rejectUnknownParams } from '../http/params.js';
import type { ObjectServer } from '../serve-object/object-server.js';
import { queryOf, requireSlug } from '../serve-object/validate.js';

export const SHOWCASE_BINDERS_DEFAULT_LIMIT = 100;

export function registerShowcaseRoutes(router: Hono<ProxyEnv>, serve: ObjectServer): void {
  router.get('/v1/u/:handle', async (c) => {
    c.set('routePattern', '/v1/u/:handle');
    rejectUnknownParams(queryOf(c), []);
    const handle = requireSlug(c.req.param('handle'), 'handle');
    return serve.document(c, showcaseKey(handle), 'showcase');
  });
  router.get('/v1/u/:handle/binders', async (c) => {
    c.set('routePattern', '/v1/u/:handle/binders');
    const query = queryOf(c);
    rejectUnknownParams(query, ['page', 'limit']);
    const handle = requireSlug(c.req.param('handle'), 'handle');
    const params = parseListParams(query, SHOWCASE_BINDERS_DEFAULT_LIMIT);
    return serve.list(c, { kind: 'showcaseBinders', handle }, params, 'showcase');
  });
}
