/** GET /v1/figures/:id — one figure with its price history (API.md §3). */
import type { Hono } from 'hono';
import { figureKey } from '../../snapshots/keys.js';
import type { ProxyEnv } from '../env.js';
import { rejectUnknownParams } from '../http/params.js';
import type { ObjectServer } from '../serve-object/object-server.js';
import { queryOf, requireId } from '../serve-object/validate.js';

export function registerFigureRoute(router: Hono<ProxyEnv>, serve: ObjectServer): void {
  router.get('/v1/figures/:id', async (c) => {
    c.set('routePattern', '/v1/figures/:id');
    rejectUnknownParams(queryOf(c), []);
    const id = requireId(c.req.param('id'), 'id');
    return serve.document(c, figureKey(id), 'figure');
  });
}
