#!/usr/bin/env node
/**
 * The catalog read of an incremental compile whose catalog files did not change: the current
 * snapshot's stored catalog (compiler/compile/stored-catalog.ts `catalogFor`) taken two ways,
 * alternating, each in a fresh process so neither inherits the other's heap:
 *
 * - `thread`: read and hashed on the read-ahead thread (read-ahead.ts), each frame's bytes handed
 *   over and decoded and parsed on the main thread, the catalog files hashed on the thread too (what
 *   `catalog compile` does);
 * - `main`: everything on the main thread (what a compile did before, and does when the files'
 *   stat differs from the one stored).
 *
 *   npm run bench:catalog-read -- <catalog folder> [--rounds 3]
 *
 * Writes a stored catalog of the folder into a temporary root first (a full read of the catalog),
 * then times `catalogFor` alone: wall time, and the process's CPU (both threads). Imports from
 * dist/, so build first. Nothing imports this file.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { machineLine } from './lib/machine.mjs';

const dist = new URL('../dist/', import.meta.url);
const load = (path) => import(new URL(path, dist));
const { values: opts, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: 'string', default: '3' }, child: { type: 'string' } } });
const [catalogDir, rootArg] = positionals;
if (!catalogDir) throw new Error('usage: node scripts/bench-catalog-read.mjs <catalog folder> [--rounds 3]');

const { catalogFor, keepCatalogState } = await load('compiler/compile/stored-catalog.js');
const { startReadAhead } = await load('compiler/compile/read-ahead.js');
const { openSource, loadCatalog } = await load('compiler/source/index.js');
const { silentProgress } = await load('compiler/compile/progress.js');
const { switchCurrent } = await load('snapshots/store/pointer.js');

if (opts.child !== undefined) {
  // One read, in this process: `--child thread|main <catalog> <root>`.
  const source = openSource(catalogDir);
  const ahead = startReadAhead('worker');
  try {
    let loads = 0;
    const t = performance.now();
    const cpu = process.cpuUsage();
    // On the thread whatever its number of frames: the comparison is the point (a compile uses the
    // thread from READ_AHEAD_FRAMES frames).
    const { catalog, state } = await catalogFor(source, rootArg, 0, silentProgress, async () => {
      loads++;
      return loadCatalog(source, { maxRejects: 0 });
    }, opts.child === 'thread' ? ahead : undefined, 1);
    const used = process.cpuUsage(cpu);
    if (loads > 0 || state.keptFrom === null) throw new Error('the stored catalog was not taken');
    console.log(JSON.stringify({ wall: (performance.now() - t) / 1000, cpu: (used.user + used.system) / 1e6, cards: catalog.cards.size }));
  } finally {
    await ahead.close();
    await source.close();
  }
} else {
  const rounds = Number(opts.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be an integer >= 1');
  console.log(machineLine());
  const root = mkdtempSync(join(tmpdir(), 'bench-catalog-read-'));
  try {
    const source = openSource(catalogDir);
    const t = performance.now();
    const { catalog, state } = await catalogFor(source, root, 0, silentProgress, () => loadCatalog(source, { maxRejects: 0 }));
    const id = '20000101T000000Z-00000000';
    mkdirSync(join(root, id));
    keepCatalogState(join(root, id), catalog, state);
    await switchCurrent(root, id);
    await source.close();
    console.log(`stored the catalog of ${catalogDir} (${catalog.cards.size} cards) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const script = fileURLToPath(import.meta.url);
    const runs = { thread: [], main: [] };
    for (let r = 1; r <= rounds; r++) {
      for (const mode of r % 2 === 1 ? ['thread', 'main'] : ['main', 'thread']) {
        const out = JSON.parse(execFileSync(process.execPath, [script, catalogDir, root, '--child', mode], { encoding: 'utf8' }).trim().split('\n').at(-1));
        runs[mode].push(out);
        console.log(`round ${r} ${mode.padEnd(6)} wall ${out.wall.toFixed(2)} s  cpu ${out.cpu.toFixed(2)} s`);
      }
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const wall = (mode) => median(runs[mode].map((o) => o.wall));
    const cpu = (mode) => median(runs[mode].map((o) => o.cpu));
    console.log(`median: thread ${wall('thread').toFixed(2)} s (cpu ${cpu('thread').toFixed(2)} s), main ${wall('main').toFixed(2)} s (cpu ${cpu('main').toFixed(2)} s), thread/main ${(wall('thread') / wall('main')).toFixed(3)}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
