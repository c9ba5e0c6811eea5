/** GET /v1/catalog/summary — counts and coverage of the whole catalog (API.md §3). */
import type { Hono } from 'hono';
import { summaryKey } from '../../snapshots/keys.js';
import type { ProxyEnv } from '../env.js';
import { rejectUnknownParams } from '../http/params.js';
import type { ObjectServer } from '../serve-object/object-server.js';
import { queryOf } from '../serve-object/validate.js';

export function registerCatalogSummaryRoute(router: Hono<ProxyEnv>, serve: ObjectServer): void {
  router.get('/v1/catalog/summary', async (c) => {
    c.set('routePattern', '/v1/catalog/summary');
    rejectUnknownParams(queryOf(c), []);
    return serve.document(c, summaryKey(), 'catalog summary');
  });
}
