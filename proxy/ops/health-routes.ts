/**
 * `GET /healthz` (the process answers) and `GET /readyz` (readiness.ts: a snapshot is published and
 * the state file takes writes). Outside `/v1` and mounted before the gate, so they need no
 * credential; before the request log and the metrics too, so a probe every second adds no lines.
 * Their bodies hold a status word and nothing else: no snapshot id, no path, no reason. Any other
 * method is 405 with `Allow`, as on every other path (RFC 9110 §15.5.6).
 */
import { Hono, type Context } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import type { ProxyEnv } from '../env.js';
import { respond } from '../http/response-headers.js';
import type { Readiness } from './readiness.js';

const HEADERS = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' };

export function createHealthRoutes(readiness: Readiness): Hono<ProxyEnv> {
  const router = new Hono<ProxyEnv>();
  // Through respond(), like every answer: it adds X-Request-Id.
  const answer = (c: Context<ProxyEnv>, body: string, status: number) => respond(c, body, status, HEADERS, body.length);
  router.get('/healthz', (c) => answer(c, '{"status":"ok"}', 200));
  router.get('/readyz', async (c) => {
    const result = await readiness.check();
    return result.ready ? answer(c, '{"status":"ready"}', 200) : answer(c, '{"status":"not_ready"}', 503);
  });
  for (const path of ['/healthz', '/readyz']) {
    router.all(path, (c) => {
      throw new CatalogError('method_not_allowed', `${c.req.method} is not allowed on this route.`, { allow: 'GET, HEAD' });
    });
  }
  return router;
}
