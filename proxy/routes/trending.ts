/** GET /v1/trending?game= — cards and figures ranked by 24-hour price velocity; a list (default limit 20). */
import type { Hono } from 'hono';
import type { ProxyEnv } from '../env.js';
import { parseListParams, rejectUnknownParams } from '../http/params.js';
import type { ObjectServer } from '../serve-object/object-server.js';
import { optionalGameFilter, queryOf } from '../serve-object/validate.js';

export const TRENDING_DEFAULT_LIMIT = 20;

export function registerTrendingRoute(router: Hono<ProxyEnv>, serve: ObjectServer): void {
  router.get('/v1/trending', async (c) => {
    c.set('routePattern', '/v1/trending');
    const query = queryOf(c);
    rejectUnknownParams(query, ['game', 'page', 'limit']);
    const game = optionalGameFilter(query);
    const params = parseListParams(query, TRENDING_DEFAULT_LIMIT);
    return serve.list(c, { kind: 'trending', game }, params, 'trending feed');
  });
}
