#!/usr/bin/env node
// What the main thread of a compile still holds after the `cards and figures` phase, by structure:
// reads the catalog, runs the entity phase of the build in dist/ (one render worker) into a scratch
// folder, then drops the structures the later phases use one at a time, collecting garbage after
// each, and prints how much of the heap each one held. Used for the per-card memory figures in
// docs/benchmarks.md ("Compile memory: what the main thread keeps").
//
//   npx tsc -p tsconfig.json && node --expose-gc scripts/compile-retained-heap.mjs <catalog folder>
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const source = process.argv[2];
if (!source || typeof globalThis.gc !== 'function') {
  console.error('usage: node --expose-gc scripts/compile-retained-heap.mjs <catalog folder>   (after npx tsc -p tsconfig.json)');
  process.exit(64);
}
const dist = new URL('../dist/compiler/', import.meta.url);
const load = (path) => import(new URL(path, dist).href);
const { loadCatalog, openSource } = await load('source/index.js');
const { renderEntities } = await load('compile/entity-phase.js');
const { openObjectTable } = await load('compile/object-table.js');
const { createPackOutput } = await load('compile/pack-output.js');
const { rendererCodeHash } = await load('compile/code-version.js');
const { silentProgress } = await load('compile/progress.js');

const scratch = mkdtempSync(join(tmpdir(), 'retained-heap-'));
const MiB = 2 ** 20;
const heap = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed / MiB;
};
let last = heap();
const mark = (what) => {
  const h = heap();
  const rss = process.memoryUsage().rss / MiB;
  console.log(`${what.padEnd(44)} heap ${h.toFixed(1).padStart(7)} MiB (${h - last >= 0 ? '+' : ''}${(h - last).toFixed(1)}), rss ${rss.toFixed(0)} MiB`);
  last = h;
};
try {
  const input = openSource(source);
  let catalog = await loadCatalog(input, { maxRejects: 0 });
  const entities = catalog.cards.size + catalog.figures.size;
  console.log(`${catalog.cards.size} cards, ${catalog.figures.size} figures (${source})`);
  mark('catalog read');
  mkdirSync(join(scratch, 'packs'));
  mkdirSync(join(scratch, 'snapshot'));
  const out = createPackOutput(join(scratch, 'packs'), {});
  const table = openObjectTable(join(scratch, 'snapshot', 'objects.sqlite'), null, out);
  let summaries = await renderEntities(catalog, input, { out, table, previousDir: null, indexPath: join(scratch, 'snapshot', 'objects.sqlite'), codeHash: rendererCodeHash(), workers: 1, threads: 'worker', progress: silentProgress });
  mark('after cards and figures');
  const before = last;
  summaries.rendered = null;
  mark('without the rendered-entity lists');
  table.entityInputs.card.clear();
  table.entityInputs.figure.clear();
  mark('without the entity inputs (object table)');
  summaries.cards.clear();
  summaries.figures.clear();
  summaries.sparklinePoints?.clear();
  mark('without the price summaries');
  catalog = null;
  mark('without the loaded catalog');
  console.log(`held after the entity phase: ${(before - last).toFixed(1)} MiB, ${(((before - last) * MiB) / entities).toFixed(0)} bytes per card or figure`);
  table.close();
  await input.close();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
