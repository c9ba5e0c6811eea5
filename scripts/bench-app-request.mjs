// Per-request cost of two (or more) builds of the proxy, in one process through `app.request` (no
// sockets, no nginx, no wrk): createApp with a real state file and an enterprise key, card documents
// and trending pages alternately, the builds taking turns round by round so a busy machine slows
// them alike. Used to compare a change with the commit before it (docs/benchmarks.md "Route table").
//
//   git archive <before> | tar -x -C /tmp/before && ln -s $PWD/node_modules /tmp/before/ && (cd /tmp/before && npx tsc -p .)
//   node scripts/bench-app-request.mjs .bench/proxy/snapshots-20000 /tmp/before .   # after `npm run bench:proxy`
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [, , snapshotRoot, ...roots] = process.argv;
if (!snapshotRoot || roots.length === 0) {
  console.error('usage: node scripts/bench-app-request.mjs <snapshot root> <build root> [<build root>...]');
  process.exit(64);
}
const ROUNDS = Number(process.env.ROUNDS ?? 30);
const PER_ROUND = Number(process.env.PER_ROUND ?? 1000);
const ids = readdirSync(join(snapshotRoot, 'current', 'v1', 'cards')).slice(0, 2000);
const path = (i) => (i % 2 === 0 ? `/v1/cards/${ids[i % ids.length]}?range=30d` : `/v1/trending?game=mtg&limit=5&page=${1 + (i % 5)}`);

const builds = [];
for (const root of roots.map((r) => resolve(r))) {
  const load = (p) => import(join(root, 'dist', p));
  const { createApp } = await load('proxy/app.js');
  const { loadConfig } = await load('proxy/config.js');
  const { createKeyStore } = await load('proxy/keys/store.js');
  const { openStateDb } = await load('proxy/state/open.js');
  const { createFsSnapshotSource } = await load('snapshots/store/fs.js');
  const dir = mkdtempSync(join(tmpdir(), 'bench-app-request-'));
  const db = openStateDb(join(dir, 'state.sqlite'));
  const key = createKeyStore(db).mint({ tenant: 'bench', tier: 'enterprise' }).key;
  const app = createApp({
    db, config: loadConfig({ CATALOG_TIER_LIMITS: 'enterprise=999999999' }), snapshots: createFsSnapshotSource(resolve(snapshotRoot)),
    logger: { error() {}, info() {} },
  });
  builds.push({ root, app, dir, db, headers: { Authorization: `Bearer ${key}`, 'Accept-Encoding': 'gzip' }, times: [] });
}

async function round(b, n) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const res = await b.app.request(path(i), { headers: b.headers });
    if (res.status !== 200) throw new Error(`${b.root}: ${path(i)} answered ${res.status}`);
    await res.arrayBuffer();
  }
  return Number(process.hrtime.bigint() - started) / 1000 / n;
}

for (const b of builds) await round(b, 3 * PER_ROUND);
for (let r = 0; r < ROUNDS; r++) for (const b of builds) b.times.push(await round(b, PER_ROUND));
for (const b of builds) {
  const t = [...b.times].sort((x, y) => x - y);
  console.log(`${b.root}: µs per request min ${t[0].toFixed(1)}, median ${t[Math.floor(t.length / 2)].toFixed(1)} (${ROUNDS} rounds of ${PER_ROUND})`);
  b.db.close();
  rmSync(b.dir, { recursive: true, force: true });
}
