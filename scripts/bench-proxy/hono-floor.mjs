/**
 * A one-off measurement for docs/benchmarks.md, not part of `npm run bench:proxy`: Hono on
 * @hono/node-server, in the proxy's process layout (a cluster of N workers), with M pass-through
 * middlewares (the proxy has nine) and one route that answers GET /v1/cards/:id?range=<r> with the
 * stored gzip file (readFileSync) and reads the Authorization header. No auth, limits, audit, log or
 * cache: what the framework and its adapter cost before the proxy does any work of its own.
 *
 *   node scripts/bench-proxy/hono-floor.mjs <snapshot folder> [workers=2] [middlewares=9]   # prints "listening on <url>"
 *   wrk -t2 -c50 -d10s --latency -s scripts/bench-proxy/cards.lua <url> -- .bench/proxy/run/card-ids.txt "" 30d
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { Hono } from 'hono';
import { getRequestListener } from '@hono/node-server';
import { argumentsOrUsage } from '../lib/arguments.mjs';
import { runCluster } from './cluster.mjs';

const [dir, workersArg = '2', middlewaresArg = '9'] = argumentsOrUsage('hono-floor.mjs <snapshot folder> [workers] [middlewares]', 2);
const ID = /^[A-Za-z0-9._-]{1,64}$/;
const RANGES = new Set(['30d', '3mo', '6mo', '12mo', 'all']);

runCluster(Number(workersArg), () => {
  const app = new Hono();
  for (let i = 0; i < Number(middlewaresArg); i++) {
    app.use('*', async (c, next) => {
      c.set(`layer${i}`, i);
      await next();
    });
  }
  app.get('/v1/cards/:id', (c) => {
    const id = c.req.param('id');
    const range = c.req.query('range') ?? '30d';
    if (!ID.test(id) || !RANGES.has(range)) return c.body(null, 404);
    let body;
    try {
      body = readFileSync(join(dir, 'v1', 'cards', id, `${range}.json.gz`));
    } catch {
      return c.body(null, 404);
    }
    const auth = c.req.header('authorization') ?? '';
    return new Response(body, {
      status: 200,
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': String(body.length), 'X-Auth-Length': String(auth.length) },
    });
  });
  const listener = getRequestListener(app.fetch);
  createServer((req, res) => void listener(req, res)).listen(0, '127.0.0.1');
});
