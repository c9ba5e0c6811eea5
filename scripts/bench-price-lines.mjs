#!/usr/bin/env node
/**
 * The stored price lines of a snapshot (`price-lines.sqlite`, compiler/compile/price-line-store.ts)
 * as an incremental compile uses them, in one process, alternating so the host's drift falls on
 * both sides of each comparison:
 *
 * - pages: the file's chunks copied into a new file in SQLite's default 4 KB pages and in the 64 KB
 *   pages the compile writes, then read back with each chunk's SHA-1 (what opening the store does);
 * - open + get (with --against <checkout>): `readPriceLines` and a `get` for every stored line in
 *   file order, this checkout's module against another build's (its `dist/`, e.g. a worktree of an
 *   older commit built with `npx tsc`).
 *
 *   npm run build && node --expose-gc scripts/bench-price-lines.mjs <snapshot>/price-lines.sqlite [--against <checkout>] [--rounds 3]
 *
 * Imports from dist/, so build first. Writes two temporary files beside the system's tmpdir and
 * removes them. Nothing imports this file.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { machineLine } from './lib/machine.mjs';

const { values: opts, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: 'string', default: '3' }, against: { type: 'string' } } });
const file = positionals[0];
const rounds = Number(opts.rounds);
if (!file) throw new Error('usage: node --expose-gc scripts/bench-price-lines.mjs <price-lines.sqlite> [--against <checkout>] [--rounds 3]');
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be an integer >= 1');

const distOf = (checkout) => pathToFileURL(join(resolve(checkout), 'dist/'));
const here = new URL('../dist/', import.meta.url);
const codec = await import(new URL('compiler/compile/price-line-codec.js', here));

console.log(machineLine());
const source = new Database(file, { readonly: true, fileMustExist: true });
const version = source.prepare('SELECT version FROM price_lines_meta').pluck().get();
const chunks = source.prepare('SELECT chunk, lines FROM price_lines ORDER BY chunk').raw().all();
source.close();
const keys = [];
for (const [, lines] of chunks) {
  const view = new DataView(lines.buffer, lines.byteOffset, lines.byteLength);
  for (let o = 0; o < lines.length; ) {
    const d = codec.decodePriceLineAt(lines, view, o);
    keys.push([d.key, d.bytes]);
    o = d.next;
  }
}
const megabytes = chunks.reduce((n, [, l]) => n + l.length, 0) / 2 ** 20;
console.log(`${file}: ${keys.length} stored lines in ${chunks.length} chunks, ${megabytes.toFixed(1)} MB`);

const dir = mkdtempSync(join(tmpdir(), 'bench-price-lines-'));
const seconds = (from) => ((performance.now() - from) / 1000).toFixed(2);

/** Writes the chunks into a new file of `pageBytes` pages as the compile does; returns [write s, read s]. */
function pages(pageBytes) {
  const path = join(dir, `p${pageBytes}.sqlite`);
  rmSync(path, { force: true });
  const t0 = performance.now();
  const db = new Database(path);
  db.pragma(`page_size = ${pageBytes}`);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec('BEGIN; CREATE TABLE price_lines (chunk INTEGER PRIMARY KEY, sha1 BLOB NOT NULL, lines BLOB NOT NULL)');
  const insert = db.prepare('INSERT INTO price_lines VALUES (?, ?, ?)');
  for (const [chunk, lines] of chunks) insert.run(chunk, createHash('sha1').update(lines).digest(), lines);
  db.exec('COMMIT');
  db.close();
  const write = seconds(t0);
  const t1 = performance.now();
  const back = new Database(path, { readonly: true });
  for (const [, sha1, lines] of back.prepare('SELECT chunk, sha1, lines FROM price_lines ORDER BY chunk').raw().iterate()) {
    if (!createHash('sha1').update(lines).digest().equals(sha1)) throw new Error('a chunk read back does not match its SHA-1');
  }
  back.close();
  return [write, seconds(t1)];
}

/** readPriceLines and a get per stored line with one build's module. */
async function openAndGet(label, dist) {
  const { readPriceLines } = await import(new URL('compiler/compile/price-line-store.js', dist));
  globalThis.gc?.();
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const stored = readPriceLines(file, version);
  const opened = seconds(t0);
  const t1 = performance.now();
  let hits = 0;
  for (const [key, bytes] of keys) if (stored.get(key, bytes) !== undefined) hits++;
  stored.close();
  const used = process.cpuUsage(cpu);
  if (hits !== keys.length) throw new Error(`${label}: ${hits} of ${keys.length} stored lines found`);
  console.log(`  ${label}: open ${opened} s, gets ${seconds(t1)} s, cpu ${((used.user + used.system) / 1e6).toFixed(2)} s`);
}

try {
  for (let r = 1; r <= rounds; r++) {
    const order = r % 2 === 1 ? [4096, 65536] : [65536, 4096];
    const results = Object.fromEntries(order.map((p) => [p, pages(p)]));
    console.log(`round ${r}: pages 4 KB write ${results[4096][0]} s, read ${results[4096][1]} s; 64 KB write ${results[65536][0]} s, read ${results[65536][1]} s`);
    if (opts.against) {
      const builds = [['this checkout', here], [opts.against, distOf(opts.against)]];
      for (const [label, dist] of r % 2 === 1 ? builds : builds.reverse()) await openAndGet(label, dist);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
