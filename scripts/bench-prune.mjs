#!/usr/bin/env node
/**
 * How a snapshot prune deletes: the product's synchronous walk (snapshots/store/fs.ts
 * removeTreeSync) against `fs.promises.rm(dir, { recursive: true })`, on hard-link copies of one
 * snapshot folder (`cp -al`: every file shares its inode with the original, as a pruned snapshot
 * shares its objects with the newer ones). Alternates the two ways, pausing between deletes
 * (a delete slows the disk for a while after it), and prints wall and CPU time of each.
 *
 *   npm run build && node scripts/bench-prune.mjs <snapshot folder> [--runs 2] [--pause 30]
 *
 * Needs free inodes for one copy at a time (~640,000 at 100,000 cards); the copies go beside the
 * snapshot's root in a `.bench-prune-*` folder, removed at the end.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { removeTreeSync } from '../dist/snapshots/store/fs.js';
import { numberOption } from './lib/arguments.mjs';
import { machineLine } from './lib/machine.mjs';

const args = process.argv.slice(2);
const source = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (!source || !existsSync(source)) {
  console.error('usage: node scripts/bench-prune.mjs <snapshot folder> [--runs 2] [--pause 30]');
  process.exit(64);
}
const runs = numberOption(args, '--runs', 2);
const pause = numberOption(args, '--pause', 30);
const work = mkdtempSync(join(dirname(dirname(resolve(source))), '.bench-prune-'));

const ways = {
  'fs.promises.rm': (dir) => rm(dir, { recursive: true, force: true }),
  'removeTreeSync (the prune)': async (dir) => removeTreeSync(dir),
};

console.log(machineLine());
console.log(`command: node scripts/bench-prune.mjs ${args.join(' ')}`);
for (let run = 0; run < runs; run++) {
  // Both orders, so neither way always runs right after the other's delete.
  const order = run % 2 === 0 ? Object.keys(ways) : Object.keys(ways).reverse();
  for (const name of order) {
    const copy = join(work, 'copy');
    const cp = spawnSync('cp', ['-al', source, copy]);
    if (cp.status !== 0) throw new Error(`cp -al failed: ${cp.stderr}`);
    spawnSync('sync');
    spawnSync('sleep', [String(pause)]);
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    await ways[name](copy);
    const c = process.cpuUsage(c0);
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    console.log(`run ${run + 1} ${name}: ${wall.toFixed(1)} s wall, ${((c.user + c.system) / 1e6).toFixed(1)} s cpu (user ${(c.user / 1e6).toFixed(1)}, system ${(c.system / 1e6).toFixed(1)})`);
    spawnSync('sleep', [String(pause)]);
  }
}
rmdirSync(work);
