// What field selection costs the proxy (docs/benchmarks.md, "Field selection"): in one process,
// through createApp and app.request (the real routes, key check, audit row in SQLite), on a compiled
// generated catalog: a set page as stored (limit 100), the same page with fields=id,name,marketCents
// the first time (decoded, filtered, encoded, cached) and again (served from the cache), view=ids, and
// a search with and without fields. Median and p99 per request over every set page of the catalog.
//   npm run bench:fields -- [--cards 10000]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { numberOption } from './lib/arguments.mjs';

const cards = numberOption(process.argv.slice(2), '--cards', 10_000);
const work = join(process.cwd(), '.bench', 'fields');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
for (const argv of [['generate', '--out', join(work, 'catalog'), '--cards', String(cards), '--seed', '7'], ['compile', '--source', join(work, 'catalog'), '--out', join(work, 'snapshots')]]) {
  const r = spawnSync('node', ['bin/catalog.js', ...argv], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
}

const { createApp } = await import('../dist/proxy/app.js');
const { loadConfig } = await import('../dist/proxy/config.js');
const { openStateDb } = await import('../dist/proxy/state/open.js');
const { createKeyStore } = await import('../dist/proxy/keys/store.js');
const { createFsSnapshotSource } = await import('../dist/snapshots/store/fs.js');

const state = openStateDb(join(work, 'state.sqlite'));
const key = createKeyStore(state).mint({ tenant: 'bench', tier: 'enterprise' }).key;
const app = createApp({ db: state, config: loadConfig({}), snapshots: createFsSnapshotSource(join(work, 'snapshots')), logger: { error() {}, info() {} } });
const headers = { Authorization: `Bearer ${key}`, 'Accept-Encoding': 'gzip' };

const sets = readFileSync(join(work, 'catalog', 'sets.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const pages = sets.map((s) => `/v1/sets/${s.game}/${s.code}?limit=100`);
const words = readFileSync(join(work, 'catalog', 'cards.ndjson'), 'utf8').split('\n').filter(Boolean).slice(0, pages.length).map((l) => JSON.parse(l).name.split(' ')[0]);

async function timed(url) {
  const t = process.hrtime.bigint();
  const res = await app.request(url, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return { us: Number(process.hrtime.bigint() - t) / 1000, bytes: body.length };
}
const stats = (xs) => {
  const us = xs.map((x) => x.us).sort((a, b) => a - b);
  const q = (p) => us[Math.min(us.length - 1, Math.floor(p * us.length))];
  return { median: q(0.5).toFixed(0), p99: q(0.99).toFixed(0), bytes: Math.round(xs.reduce((n, x) => n + x.bytes, 0) / xs.length) };
};

// Warm: every stored page in the object cache, every code path compiled.
for (const p of pages) await timed(p);
for (let i = 0; i < 3; i++) for (const w of words) await timed(`/v1/search?q=${encodeURIComponent(w)}`);
const rows = {
  'stored page (cached)': [], 'fields, first request (miss)': [], 'fields, again (cached)': [], 'view=ids, first request': [], 'view=ids, again': [],
};
for (const p of pages) {
  rows['stored page (cached)'].push(await timed(p));
  rows['fields, first request (miss)'].push(await timed(`${p}&fields=id,name,marketCents`));
  rows['fields, again (cached)'].push(await timed(`${p}&fields=id,name,marketCents`));
  rows['view=ids, first request'].push(await timed(`${p}&view=ids`));
  rows['view=ids, again'].push(await timed(`${p}&view=ids`));
}
const search = { 'search, full items': [], 'search, fields=id,name': [] };
for (const w of words) {
  search['search, full items'].push(await timed(`/v1/search?q=${encodeURIComponent(w)}&limit=100`));
  search['search, fields=id,name'].push(await timed(`/v1/search?q=${encodeURIComponent(w)}&limit=100&fields=id,name`));
}
console.log(`${cards} cards, ${pages.length} set pages of up to 100 cards, gzip accepted; µs per request through app.request`);
console.log('| request | median µs | p99 µs | bytes sent (gzip) |');
console.log('|---|---|---|---|');
for (const [name, xs] of Object.entries({ ...rows, ...search })) {
  const s = stats(xs);
  console.log(`| ${name} | ${s.median} | ${s.p99} | ${s.bytes} |`);
}
state.close();
