/** GET /v1/cards/:id?range=30d|3mo|6mo|12mo|all — one printing with its price history (API.md §3). */
import type { Hono } from 'hono';
import { cardKey } from '../../snapshots/keys.js';
import { RANGES } from '../../snapshots/records.js';
import type { ProxyEnv } from '../env.js';
import { rejectUnknownParams, singleParam } from '../http/params.js';
import type { ObjectServer } from '../serve-object/object-server.js';
import { queryOf, requireId, requireOneOf } from '../serve-object/validate.js';

export const DEFAULT_RANGE = '30d';

export function registerCardRoute(router: Hono<ProxyEnv>, serve: ObjectServer): void {
  router.get('/v1/cards/:id', async (c) => {
    c.set('routePattern', '/v1/cards/:id');
    const query = queryOf(c);
    rejectUnknownParams(query, ['range']);
    const id = requireId(c.req.param('id'), 'id');
    const range = requireOneOf(singleParam(query, 'range') ?? DEFAULT_RANGE, RANGES, 'range');
    return serve.document(c, cardKey(id, range), 'card');
  });
}
