#!/usr/bin/env node
/**
 * The search index build alone, on the entries of a real snapshot: every entry of an existing
 * search.sqlite is turned back into a SearchEntry (its summary gives the name, set name, artist and
 * number) and fed to this checkout's builder in id order (the order a compile adds them, not rank
 * order); the time of `add` (all entries) and of `finish` (rank, load, FTS optimize, final write)
 * is printed. To compare two builders, run it in two checkouts on the same file, alternating.
 *
 *   npx tsc -p tsconfig.json
 *   node bin/catalog.js generate --out /tmp/cat-1m --cards 1000000 --seed 7
 *   node bin/catalog.js compile --source /tmp/cat-1m --out /tmp/root-1m
 *   node scripts/bench-search-build.mjs /tmp/root-1m/current/search.sqlite [--rounds 2]
 *
 * Imports from dist/, so build first. Nothing imports this file.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { argumentsOrUsage, numberOption } from './lib/arguments.mjs';
import { machineLine } from './lib/machine.mjs';

const args = argumentsOrUsage('node scripts/bench-search-build.mjs <search.sqlite> [--rounds N]');
const from = args[0];
const rounds = numberOption(args, '--rounds', 1);
const Database = createRequire(import.meta.url)('better-sqlite3');
const { createSearchIndexBuilder } = await import(new URL('../dist/compiler/search/index-builder.js', import.meta.url));

const text = (v) => (typeof v === 'string' ? v : null);
const source = new Database(from, { readonly: true, fileMustExist: true });
const entries = source.prepare('SELECT kind, id, game, popularity, summary FROM search_entries ORDER BY id');

console.log(machineLine());
console.log(`command: node scripts/bench-search-build.mjs ${process.argv.slice(2).join(' ')}`);
for (let round = 1; round <= rounds; round++) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-search-build-'));
  const path = join(dir, 'search.sqlite');
  try {
    const builder = createSearchIndexBuilder(path, { asOf: '2026-11-20' });
    let start = performance.now();
    for (const r of entries.iterate()) {
      const s = JSON.parse(r.summary);
      const setName = text(s.set?.name) ?? text(s.series?.name) ?? text(s.series);
      builder.add({ kind: r.kind, id: r.id, game: r.game, name: text(s.name) ?? '', setName, artist: text(s.artist), number: text(s.number) ?? text(s.code), popularity: r.popularity, summary: s });
    }
    const add = (performance.now() - start) / 1000;
    start = performance.now();
    builder.finish();
    const finish = (performance.now() - start) / 1000;
    console.log(`round ${round}: ${builder.count.toLocaleString('en-US')} entries, add ${add.toFixed(2)} s, finish ${finish.toFixed(2)} s, file ${statSync(path).size.toLocaleString('en-US')} bytes`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
source.close();
