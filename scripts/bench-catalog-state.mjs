#!/usr/bin/env node
/**
 * The `catalog state` phase of a full compile alone: a stored catalog (compiler/compile/stored-catalog.ts)
 * written by this checkout's build and by another commit's (built in another checkout), alternating,
 * from the same catalog in one process: the catalog taken from the current snapshot of `<root>` (so
 * both write the same records), each write's wall time and the file's bytes.
 *
 *   node scripts/bench-catalog-state.mjs <root> <catalog folder> --base /tmp/base [--rounds 3] [--records]
 *
 * With `--records` the cards are first put in a Map of record objects, as a load of the catalog files
 * makes them (what a full compile writes from); without it they stay in the stored catalog's card table.
 *
 * `<root>` is a compile root whose current snapshot this checkout's build wrote (its stored catalog is
 * read with this build's code). Imports from dist/ of both checkouts, so build both first.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { machineLine } from './lib/machine.mjs';

const { values: opts, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: 'string', default: '3' }, base: { type: 'string' }, records: { type: 'boolean', default: false } } });
const [root, catalogDir] = positionals;
if (!root || !catalogDir || !opts.base) throw new Error('usage: node scripts/bench-catalog-state.mjs <root> <catalog folder> --base <built checkout> [--rounds 3]');
const here = (path) => import(new URL(`../dist/${path}`, import.meta.url));
const there = (path) => import(join(resolve(opts.base), 'dist', path));

const mine = await here('compiler/compile/stored-catalog.js');
const theirs = await there('compiler/compile/stored-catalog.js');
const { openSource, loadCatalog } = await here('compiler/source/index.js');
const { silentProgress } = await here('compiler/compile/progress.js');
const source = openSource(catalogDir);
const { catalog: taken, state } = await mine.catalogFor(source, root, 1_000_000, silentProgress, () => loadCatalog(source, { maxRejects: 1_000_000 }));
const catalog = opts.records ? { ...taken, cards: new Map(taken.cards) } : taken;
if (state.keptFrom === null) throw new Error(`${root}'s current snapshot has no stored catalog of ${catalogDir} written by this build`);
console.log(machineLine());
console.log(`${catalog.cards.size} cards (${opts.records ? 'a Map of records' : 'the card table'}), ${catalog.figures.size} figures, taken from ${state.keptFrom}`);
const dir = mkdtempSync(join(tmpdir(), 'bench-catalog-state-'));
try {
  for (let round = 1; round <= Number(opts.rounds); round++) {
    for (const [label, module] of round % 2 === 1 ? [['this', mine], ['base', theirs]] : [['base', theirs], ['this', mine]]) {
      const path = join(dir, `${label}.state`);
      const start = process.hrtime.bigint();
      module.writeStoredCatalog(path, catalog, state.filesHash, null);
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      console.log(`round ${round} ${label}: ${seconds.toFixed(2)} s, ${statSync(path).size} bytes`);
      rmSync(path);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
