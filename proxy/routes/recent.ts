/** GET /v1/recent?game= — cards and figures most recently added to the catalog; a list (default limit 20). */
import type { Hono } from 'hono';
import type { ProxyEnv } from '../env.js';
import { parseListParams, rejectUnknownParams } from '../http/params.js';
import type { ObjectServer } from '../serve-object/object-server.js';
import { optionalGameFilter, queryOf } from '../serve-object/validate.js';

export const RECENT_DEFAULT_LIMIT = 20;

export function registerRecentRoute(router: Hono<ProxyEnv>, serve: ObjectServer): void {
  router.get('/v1/recent', async (c) => {
    c.set('routePattern', '/v1/recent');
    const query = queryOf(c);
    rejectUnknownParams(query, ['game', 'page', 'limit']);
    const game = optionalGameFilter(query);
    const params = parseListParams(query, RECENT_DEFAULT_LIMIT);
    return serve.list(c, { kind: 'recent', game }, params, 'recent feed');
  });
}
