/** GET /v1/artists/:slug — every printing by one artist, any game; a list (default limit 100). */
import type { Hono } from 'hono';
import type { ProxyEnv } from '../env.js';
import { parseListParams, rejectUnknownParams } from '../http/params.js';
import type { ObjectServer } from '../serve-object/object-server.js';
import { queryOf, requireSlug } from '../serve-object/validate.js';

export const ARTIST_DEFAULT_LIMIT = 100;

export function registerArtistRoute(router: Hono<ProxyEnv>, serve: ObjectServer): void {
  router.get('/v1/artists/:slug', async (c) => {
    c.set('routePattern', '/v1/artists/:slug');
    const query = queryOf(c);
    rejectUnknownParams(query, ['page', 'limit']);
    const slug = requireSlug(c.req.param('slug'), 'slug');
    const params = parseListParams(query, ARTIST_DEFAULT_LIMIT);
    return serve.list(c, { kind: 'artist', slug }, params, 'artist');
  });
}
