/** GET /v1/figures/series/:id — the figures of one series, a list (default limit 100). */
import type { Hono } from 'hono';
import type { ProxyEnv } from '../env.js';
import { parseListParams, rejectUnknownParams } from '../http/params.js';
import type { ObjectServer } from '../serve-object/object-server.js';
import { queryOf, requireId } from '../serve-object/validate.js';

export const SERIES_DEFAULT_LIMIT = 100;

export function registerFigureSeriesRoute(router: Hono<ProxyEnv>, serve: ObjectServer): void {
  router.get('/v1/figures/series/:id', async (c) => {
    c.set('routePattern', '/v1/figures/series/:id');
    const query = queryOf(c);
    rejectUnknownParams(query, ['page', 'limit']);
    const id = requireId(c.req.param('id'), 'id');
    const params = parseListParams(query, SERIES_DEFAULT_LIMIT);
    return serve.list(c, { kind: 'series', id }, params, 'figure series');
  });
}
