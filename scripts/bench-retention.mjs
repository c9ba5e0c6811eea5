// What keeping snapshots costs on disk (docs/benchmarks.md, "Keeping 90 daily snapshots"): a real
// compile of a generated catalog, then incremental compiles with 1% of the prices changed before each
// (lib/touch-prices.mjs, as bench-compile.mjs), all kept (--keep 20). For each snapshot it prints the
// bytes of its own files (object index, search index, bulk files, change list, manifest), the packs
// its manifest lists and the packs that are new in it (absent from the previous manifest): a kept
// snapshot costs its own files plus its new packs, the older packs being shared.
//   npm run bench:retention -- [--cards 100000] [--incrementals 4]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { numberOption } from './lib/arguments.mjs';
import { touchOnePercent } from './lib/touch-prices.mjs';

const args = process.argv.slice(2);
const cards = numberOption(args, '--cards', 100_000);
const incrementals = numberOption(args, '--incrementals', 4);
const work = join(process.cwd(), '.bench', 'retention');
const cat = join(work, 'catalog');
const snaps = join(work, 'snapshots');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

const cli = (argv) => {
  const t = Date.now();
  const r = spawnSync('node', ['bin/catalog.js', ...argv], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`catalog ${argv.join(' ')} failed: ${r.stderr}`);
  process.stderr.write(`${((Date.now() - t) / 1000).toFixed(1)} s: ${r.stdout.trim().split('\n').pop()}\n`);
};
const bytes = (p) => (statSync(p).isDirectory() ? readdirSync(p).reduce((n, e) => n + bytes(join(p, e)), 0) : statSync(p).size);

cli(['generate', '--out', cat, '--cards', String(cards), '--seed', '7']);
cli(['compile', '--source', cat, '--out', snaps, '--keep', '20']);
for (let i = 0; i < incrementals; i++) {
  await touchOnePercent(cat);
  cli(['compile', '--source', cat, '--out', snaps, '--keep', '20']);
}

const ids = readdirSync(snaps).filter((n) => /^\d{8}T/.test(n)).sort();
let previous = new Set();
console.log('| snapshot | changed objects | own files | packs listed | new packs |');
console.log('|---|---|---|---|---|');
for (const id of ids) {
  const h = JSON.parse(readFileSync(join(snaps, id, 'manifest.ndjson'), 'utf8').split('\n')[0]);
  const fresh = h.packs.filter((p) => !previous.has(p.sha256));
  const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
  console.log(`| ${id} | ${h.counts.new + h.counts.changed} | ${mb(bytes(join(snaps, id)))} | ${h.packs.length}, ${mb(h.packs.reduce((n, p) => n + p.size, 0))} | ${fresh.length}, ${mb(fresh.reduce((n, p) => n + p.size, 0))} |`);
  previous = new Set(h.packs.map((p) => p.sha256));
}
console.log(`\npacks/: ${readdirSync(join(snaps, 'packs')).length} files, ${(bytes(join(snaps, 'packs')) / 1e6).toFixed(1)} MB; the root: ${(bytes(snaps) / 1e6).toFixed(1)} MB`);
