#!/usr/bin/env node
// Compile benchmark: generates catalogs of 10k and 100k cards (1M with --1m), compiles each with the
// real CLI, then changes 1% of the cards' prices and compiles again (incremental). Reports wall time,
// objects/s and peak RSS of the compile process, plus the incremental/full ratio measured in the same run.
//
//   npm run bench:compile              # 10k and 100k
//   npm run bench:compile -- --1m      # also 1,000,000 (about 6 GB of input; takes a while)
//   npm run bench:compile -- --sizes 20000
//   npm run bench:compile -- --real-only   # only the real corpus: import all of ../shared/datasets, then compile
// When ../shared/datasets (next to the project) exists, the real public datasets are also imported into one
// source folder with `catalog import` (the commands of docs/real-data.md) and compiled.
//   npm run bench:compile -- --settle 0   # do not wait after deleting the previous run's files
//
// Deleting hundreds of thousands of files makes file creation on this ext4 VM (mounted with
// `discard`) several times slower for tens of seconds afterwards (docs/benchmarks.md), so after
// removing a previous run's folders the script syncs and waits --settle seconds (default 60).
// Each compile runs with CATALOG_COMPILE_TIMINGS=1; the phase times are printed under the table.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { numberOption } from './lib/arguments.mjs';
import { loadAverage } from './lib/machine.mjs';
import { settle, timedRun, touchOnePercent } from './lib/compile-runs.mjs';

const args = process.argv.slice(2);
const realOnly = args.includes('--real-only');
let sizes = realOnly ? [] : [10_000, 100_000];
if (args.includes('--1m')) sizes.push(1_000_000);
const si = args.indexOf('--sizes');
if (si >= 0) sizes = args[si + 1].split(',').map(Number);
const settleSeconds = numberOption(args, '--settle', 60);
const work = join(process.cwd(), '.bench');
mkdirSync(work, { recursive: true });
const run = (cmd, argv) => timedRun(cmd, argv);

const rows = [];
for (const cards of sizes) {
  const cat = join(work, `catalog-${cards}`);
  const snaps = join(work, `snapshots-${cards}`);
  const deleted = existsSync(snaps);
  rmSync(cat, { recursive: true, force: true });
  rmSync(snaps, { recursive: true, force: true });
  process.stderr.write(`generating ${cards} cards...\n`);
  const gen = run('node', ['bin/catalog.js', 'generate', '--out', cat, '--cards', String(cards), '--seed', '7']);
  if (deleted) settle(settleSeconds);
  process.stderr.write(`compiling ${cards} cards (full, load average ${loadavg()[0].toFixed(2)})...\n`);
  const full = run('node', ['bin/catalog.js', 'compile', '--source', cat, '--out', snaps]);
  const objects = Number(/: (\d+) objects/.exec(full.stdout)?.[1] ?? 0);
  const changed = await touchOnePercent(cat);
  process.stderr.write(`compiling ${cards} cards (incremental, ${changed} price series changed, load average ${loadavg()[0].toFixed(2)})...\n`);
  const inc = run('node', ['bin/catalog.js', 'compile', '--source', cat, '--out', snaps]);
  const verify = run('node', ['bin/catalog.js', 'verify', snaps]);
  rows.push({ cards, objects, gen, full, inc, changed, verify });
  process.stderr.write(`${full.stdout}\n${inc.stdout}\n`);
}

/** The real corpus: every import of docs/real-data.md into one folder, then one full compile. */
function realCorpus() {
  const datasets = resolve(process.cwd(), '../shared/datasets');
  if (!existsSync(join(datasets, 'SOURCES.md'))) {
    process.stderr.write(`real corpus skipped: ${datasets} is absent\n`);
    return null;
  }
  const src = join(work, 'real-catalog');
  const snaps = join(work, 'real-snapshots');
  rmSync(src, { recursive: true, force: true });
  rmSync(snaps, { recursive: true, force: true });
  const d = (p) => join(datasets, p);
  const common = ['--out', src, '--as-of', '2026-11-22'];
  const imports = [
    ['mtgjson', d('mtg/mtgjson-sets')],
    ['pokemon-tcg-data', d('pokemon')],
    ['lorcanajson', d('lorcana/lorcanajson/allCards.json')],
    ['punk-records', d('onepiece/punk-records/english'), '--sets', d('onepiece/mytcgcollection/sets_en.json')],
    ['amiibo', d('figures/amiibo/amiibo.json')],
    ['pokemon-prices-csv', d('pokemon/prices/tcgplayer_market_snapshots_2025-02.csv')],
    ['lorcast', d('lorcana/lorcast-snapshot'), '--price-date', '2025-04-11'],
  ];
  const steps = [];
  for (const [format, ...rest] of imports) {
    process.stderr.write(`importing ${format}...\n`);
    const r = run('node', ['bin/catalog.js', 'import', format, ...rest, ...common]);
    const total = /^total\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$/m.exec(r.stdout);
    steps.push({ format, ...r, counts: total ? total.slice(1).map(Number) : null });
  }
  process.stderr.write('compiling the real corpus (full)...\n');
  const full = run('node', ['bin/catalog.js', 'compile', '--source', src, '--out', snaps]);
  const objects = Number(/: (\d+) objects/.exec(full.stdout)?.[1] ?? 0);
  process.stderr.write(`${full.stdout}\n`);
  return { steps, full, objects };
}

const real = realCorpus();
const f = (x, d = 1) => (x === null ? 'n/a' : x.toFixed(d));
console.log(`machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`);
console.log('command: npm run bench:compile' + (args.length ? ' -- ' + args.join(' ') : ''));
console.log('');
if (rows.length > 0) console.log('| cards | objects | generate s (peak MiB) | full compile s | objects/s | peak MiB | incremental s (1% changed) | incremental/full | verify s |');
if (rows.length > 0) console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.cards.toLocaleString('en-US')} | ${r.objects.toLocaleString('en-US')} | ${f(r.gen.wall)} (${f(r.gen.peakMiB, 0)}) | ${f(r.full.wall)} | ` +
      `${Math.round(r.objects / r.full.wall).toLocaleString('en-US')} | ${f(r.full.peakMiB, 0)} | ${f(r.inc.wall)} | ${f(r.inc.wall / r.full.wall, 3)} | ${f(r.verify.wall)} |`,
  );
}
if (real !== null) {
  console.log('');
  console.log(`load average at the end: ${loadAverage()}`);
  console.log('');
  console.log('| real corpus step | read | imported | merged | rejected | wall s | peak MiB |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const s of real.steps) {
    const [read, imported, merged, rejected] = s.counts ?? [0, 0, 0, 0];
    console.log(`| import ${s.format} | ${read.toLocaleString('en-US')} | ${imported.toLocaleString('en-US')} | ${merged.toLocaleString('en-US')} | ${rejected} | ${f(s.wall)} | ${f(s.peakMiB, 0)} |`);
  }
  const importWall = real.steps.reduce((sum, s) => sum + s.wall, 0);
  console.log(`| all imports | | | | | ${f(importWall)} | ${f(Math.max(...real.steps.map((s) => s.peakMiB ?? 0)), 0)} |`);
  console.log(`| compile (${real.objects.toLocaleString('en-US')} objects, ${Math.round(real.objects / real.full.wall).toLocaleString('en-US')} objects/s) | | | | | ${f(real.full.wall)} | ${f(real.full.peakMiB, 0)} |`);
}
console.log('');
for (const r of rows) {
  for (const [mode, res] of [['full', r.full], ['incremental', r.inc]]) {
    console.log(`${r.cards.toLocaleString('en-US')} cards, ${mode}:`);
    for (const line of res.phases) console.log(`  ${line}`);
  }
}
