/**
 * The reference point between nginx and the proxy in scripts/bench-proxy.sh: plain node:http, with
 * the proxy's process layout (a cluster of N workers sharing the port), answering GET
 * /v1/cards/<id>?range=<r> with the stored gzip file read by readFileSync, as the proxy reads an
 * object it has not cached. No auth, no rate limit, no audit, no log line, no cache: what Node
 * itself costs per request on this machine, so the proxy's own share can be told apart from the
 * runtime's.
 *
 *   node scripts/bench-proxy/bare-node.mjs <snapshot folder> <workers>   # prints "listening on <url>"
 */
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const [dir, workersArg = '2'] = process.argv.slice(2);
if (!dir) {
  process.stderr.write('usage: bare-node.mjs <snapshot folder> [workers]\n');
  process.exit(2);
}
const CARD = /^\/v1\/cards\/([A-Za-z0-9._-]{1,64})\?range=(30d|3mo|6mo|12mo|all)$/;

if (cluster.isPrimary) {
  const workers = Number(workersArg);
  let announced = false;
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on('listening', (_worker, address) => {
    if (announced) return;
    announced = true;
    process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
  });
  // The port is chosen by the first worker and reused by the others (cluster shares one handle).
  process.on('SIGTERM', () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
    process.exit(0);
  });
} else {
  createServer((req, res) => {
    const m = CARD.exec(req.url ?? '');
    if (req.method !== 'GET' || m === null) {
      res.writeHead(404).end();
      return;
    }
    let body;
    try {
      body = readFileSync(join(dir, 'v1', 'cards', m[1], `${m[2]}.json.gz`));
    } catch {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': body.length });
    res.end(body);
  }).listen(Number(process.env.BARE_PORT ?? 0), '127.0.0.1');
}
