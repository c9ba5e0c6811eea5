/** GET /v1/series/:id/pull-stats — community pull rates of one figure series (API.md §3). */
import type { Hono } from 'hono';
import { pullStatsKey } from '../../snapshots/keys.js';
import type { ProxyEnv } from '../env.js';
import { rejectUnknownParams } from '../http/params.js';
import type { ObjectServer } from '../serve-object/object-server.js';
import { queryOf, requireId } from '../serve-object/validate.js';

export function registerPullStatsRoute(router: Hono<ProxyEnv>, serve: ObjectServer): void {
  router.get('/v1/series/:id/pull-stats', async (c) => {
    c.set('routePattern', '/v1/series/:id/pull-stats');
    rejectUnknownParams(queryOf(c), []);
    const id = requireId(c.req.param('id'), 'id');
    return serve.document(c, pullStatsKey(id), 'pull stats');
  });
}
