/**
 * The reference point between nginx and the proxy in scripts/bench-proxy.sh: plain node:http, with
 * the proxy's process layout (a cluster of N workers sharing the port), answering GET
 * /v1/cards/<id>?range=<r> with the stored gzip file read by readFileSync from the folder nginx
 * serves (the snapshot's `catalog mirror --layout files` export; the proxy reads the same bytes from
 * a pack by index lookup and pread). No auth, no rate limit, no audit, no log line, no cache: what
 * Node itself costs per request on this machine, so the proxy's own share can be told apart from the
 * runtime's.
 *
 *   node scripts/bench-proxy/bare-node.mjs <export folder> <workers>   # prints "listening on <url>"
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { argumentsOrUsage } from '../lib/arguments.mjs';
import { runCluster } from './cluster.mjs';

const [dir, workersArg = '2'] = argumentsOrUsage('bare-node.mjs <export folder> [workers]', 2);
const CARD = /^\/v1\/cards\/([A-Za-z0-9._-]{1,64})\?range=(30d|3mo|6mo|12mo|all)$/;

runCluster(Number(workersArg), () => {
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
  }).listen(0, '127.0.0.1');
});
