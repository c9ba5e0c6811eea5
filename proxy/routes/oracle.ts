/** GET /v1/oracle/:id — an MTG oracle concept with all its printings (API.md §3). */
import type { Hono } from 'hono';
import { oracleKey } from '../../snapshots/keys.js';
import type { ProxyEnv } from '../env.js';
import { rejectUnknownParams } from '../http/params.js';
import type { ObjectServer } from '../serve-object/object-server.js';
import { queryOf, requireId } from '../serve-object/validate.js';

export function registerOracleRoute(router: Hono<ProxyEnv>, serve: ObjectServer): void {
  router.get('/v1/oracle/:id', async (c) => {
    c.set('routePattern', '/v1/oracle/:id');
    rejectUnknownParams(queryOf(c), []);
    const id = requireId(c.req.param('id'), 'id');
    return serve.document(c, oracleKey(id), 'oracle concept');
  });
}
