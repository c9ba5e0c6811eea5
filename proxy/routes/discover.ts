/** GET /v1/discover/{sets,users,binders,activity,sparklines} — the discover feeds; lists (default limit 20). */
import type { Hono } from 'hono';
import { DISCOVER_FEEDS } from '../../snapshots/keys.js';
import type { ProxyEnv } from '../env.js';
import { parseListParams, rejectUnknownParams } from '../http/params.js';
import type { ObjectServer } from '../serve-object/object-server.js';
import { queryOf, requireOneOf } from '../serve-object/validate.js';

export const DISCOVER_DEFAULT_LIMIT = 20;

export function registerDiscoverRoute(router: Hono<ProxyEnv>, serve: ObjectServer): void {
  router.get('/v1/discover/:feed', async (c) => {
    c.set('routePattern', '/v1/discover/:feed');
    const query = queryOf(c);
    rejectUnknownParams(query, ['page', 'limit']);
    const feed = requireOneOf(c.req.param('feed'), DISCOVER_FEEDS, 'feed');
    // The audit row names the concrete feed: API.md lists the five as separate routes.
    c.set('routePattern', `/v1/discover/${feed}`);
    const params = parseListParams(query, DISCOVER_DEFAULT_LIMIT);
    return serve.list(c, { kind: 'discover', feed }, params, 'discover feed');
  });
}
