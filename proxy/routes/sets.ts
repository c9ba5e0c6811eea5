/** GET /v1/sets/:game/:setCode — the cards of one set, a list (default limit 100); set codes match case-insensitively. */
import type { Hono } from 'hono';
import type { ProxyEnv } from '../env.js';
import { parseListParams, rejectUnknownParams } from '../http/params.js';
import type { ObjectServer } from '../serve-object/object-server.js';
import { queryOf, requireGame, requireSetCode } from '../serve-object/validate.js';

export const SET_DEFAULT_LIMIT = 100;

export function registerSetRoute(router: Hono<ProxyEnv>, serve: ObjectServer): void {
  router.get('/v1/sets/:game/:setCode', async (c) => {
    c.set('routePattern', '/v1/sets/:game/:setCode');
    const query = queryOf(c);
    rejectUnknownParams(query, ['page', 'limit']);
    const game = requireGame(c.req.param('game'), 'game');
    const code = requireSetCode(c.req.param('setCode'), 'setCode');
    const params = parseListParams(query, SET_DEFAULT_LIMIT);
    return serve.list(c, { kind: 'set', game, code }, params, 'set');
  });
}
