#!/usr/bin/env node
/**
 * The least CPU any incremental compile needs for the change a snapshot records, whatever its design,
 * as long as it publishes the same bytes: what the 0.05 target of issue 17 can be held against.
 *
 *   npm run bench:incremental-floor -- <snapshot root> --prices <price file> [--full <s>] [--rounds 3]
 *
 * The root's `current` snapshot must be an incremental one (its changes.ndjson lists what it wrote
 * again) and `--prices` the price file it was compiled from. Timed, on this one thread, each part
 * measured alone (process.cpuUsage: this thread's CPU):
 *
 * 1. **prices**: the price file read and each line hashed (SHA-1, what finding the changed lines
 *    takes; no design finds them without reading every byte);
 * 2. **objects**: the JSON of every object the snapshot wrote again, compressed with the snapshot's
 *    gzip settings and hashed (SHA-256), as a compile must; rendering the JSON is not counted;
 * 3. **bulk, lines alone**: each changed line of the cards, figures and oracle bulk files compressed
 *    on its own: the least any segmented bulk file needs;
 * 4. **bulk, format 2**: the segments format 2 compresses again (compiler/bulk/segmented-gzip.ts: a
 *    segment holding a changed line, and the one after it, compressed against its tail), what this
 *    design's bulk thread cannot do with less.
 *
 * Not timed: reading the objects back and inflating them (the setup). With `--full <seconds>` (a full
 * compile of the same catalog on this host) it prints the floor as a share of it, for two cores
 * working in parallel without a pause. Imports from dist/, so build first. Nothing imports this file.
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { hash } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { machineLine } from './lib/machine.mjs';

const dist = new URL('../dist/', import.meta.url);
const load = (path) => import(new URL(path, dist));
const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: { prices: { type: 'string' }, full: { type: 'string' }, rounds: { type: 'string', default: '3' } },
});
const [root] = positionals;
if (!root || !opts.prices) throw new Error('usage: node scripts/bench-incremental-floor.mjs <snapshot root> --prices <price file> [--full <s>] [--rounds 3]');

const { gzip, gunzip, sha256Hex } = await load('snapshots/codec.js');
const { segmentsOf, compressSegment } = await load('compiler/bulk/segmented-gzip.js');
const { lineOfObject } = await load('compiler/bulk/write-file.js');
const { DOCUMENT_RANGES, documentRowsSql } = await load('compiler/bulk/document-ranges.js');
const { createPackReader } = await load('snapshots/packs/pack-reader.js');

const current = join(root, 'current');
const db = new Database(join(current, 'objects.sqlite'), { readonly: true });
const packNames = new Map(db.prepare('SELECT seq, sha256 FROM packs').all().map((p) => [p.seq, p.sha256]));
const packs = createPackReader({ dir: join(root, 'packs') });
const rowOf = db.prepare('SELECT pack, offset, length FROM objects WHERE key = ?');
/** The stored (gzip) bytes of the object of an index row. */
const stored = (row) => packs.read(packNames.get(row.pack), row.offset, row.length);

// The setup: the JSON of every object written again, and the bulk lines around the changed ones.
const changes = readFileSync(join(current, 'changes.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const written = changes.filter((c) => c.change === 'new' || c.change === 'changed').map((c) => c.key);
const objects = written.map((key) => gunzip(stored(rowOf.get(key))));
const objectBytes = objects.reduce((n, o) => n + o.length, 0);
const changedKeys = new Set(written);
/** Per bulk file: the changed lines alone, and the segments format 2 writes again with their `before` text. */
const bulk = {};
for (const name of Object.keys(DOCUMENT_RANGES)) {
  const rows = db.prepare(documentRowsSql(name, 'key, pack, offset, length')).all();
  const keys = rows.map((r) => r.key);
  const segments = segmentsOf(keys);
  const lineAt = (i) => lineOfObject(gunzip, stored(rows[i]), keys[i]);
  const changed = [];
  const again = new Set();
  segments.forEach(([start, end], s) => {
    for (let i = start; i < end; i++) {
      if (!changedKeys.has(keys[i])) continue;
      changed.push(lineAt(i));
      again.add(s);
      if (s + 1 < segments.length) again.add(s + 1);
    }
  });
  const textOf = (s) => Buffer.concat(Array.from({ length: segments[s][1] - segments[s][0] }, (_, k) => lineAt(segments[s][0] + k)));
  const segmentsAgain = [...again].sort((a, b) => a - b).map((s) => ({ text: textOf(s), before: s === 0 ? Buffer.alloc(0) : textOf(s - 1) }));
  bulk[name] = { lines: keys.length, changed, segmentsAgain };
}
packs.close();
db.close();

/** CPU seconds of this thread and wall seconds of `fn`. */
function timed(fn) {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const result = fn();
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / 1e6, wall: (performance.now() - t) / 1000, result };
}

/** Reads the file once and hashes each line (one-shot SHA-1, as compiler/source/prices.ts does). */
function hashPriceLines(path) {
  const fd = openSync(path, 'r');
  const buffer = Buffer.allocUnsafe(8 * 2 ** 20);
  let held = 0;
  let lines = 0;
  try {
    for (;;) {
      const n = readSync(fd, buffer, held, buffer.length - held, null);
      if (n === 0) break;
      const end = held + n;
      let start = 0;
      for (let nl = buffer.indexOf(10, start); nl >= 0 && nl < end; nl = buffer.indexOf(10, start)) {
        hash('sha1', buffer.subarray(start, nl), 'buffer');
        lines++;
        start = nl + 1;
      }
      // A line longer than the buffer is not expected of a price file (a few KB each).
      held = buffer.copy(buffer, 0, start, end);
    }
  } finally {
    closeSync(fd);
  }
  return lines;
}

const parts = {
  prices: () => hashPriceLines(opts.prices),
  objects: () => {
    let bytes = 0;
    for (const json of objects) {
      const gz = gzip(json);
      sha256Hex(gz);
      bytes += gz.length;
    }
    return bytes;
  },
  'bulk, lines alone': () => {
    let bytes = 0;
    for (const b of Object.values(bulk)) for (const line of b.changed) bytes += compressSegment(line, Buffer.alloc(0)).length;
    return bytes;
  },
  'bulk, format 2': () => {
    let bytes = 0;
    for (const b of Object.values(bulk)) for (const s of b.segmentsAgain) bytes += compressSegment(s.text, s.before).length;
    return bytes;
  },
};

console.log(machineLine());
console.log(`snapshot ${root}/current: ${written.length} objects written again, ${(objectBytes / 1e6).toFixed(1)} MB of JSON; price file ${(statSync(opts.prices).size / 1e9).toFixed(2)} GB`);
for (const [name, b] of Object.entries(bulk)) {
  const again = b.segmentsAgain.reduce((n, s) => n + s.text.length, 0);
  console.log(`bulk ${name}: ${b.lines} lines, ${b.changed.length} changed (${(b.changed.reduce((n, l) => n + l.length, 0) / 1e6).toFixed(1)} MB), ${b.segmentsAgain.length} segments compressed again (${(again / 1e6).toFixed(1)} MB)`);
}
const best = {};
for (let round = 1; round <= Number(opts.rounds); round++) {
  for (const [name, fn] of Object.entries(parts)) {
    const { cpu, wall } = timed(fn);
    console.log(`round ${round} ${name}: ${cpu.toFixed(2)} s CPU, ${wall.toFixed(2)} s wall`);
    best[name] = Math.min(best[name] ?? Infinity, cpu);
  }
}
const floor = best.prices + best.objects + best['bulk, lines alone'];
const format2 = best.prices + best.objects + best['bulk, format 2'];
console.log(`least CPU over ${opts.rounds} rounds: ${Object.entries(best).map(([n, c]) => `${n} ${c.toFixed(2)} s`).join(', ')}`);
console.log(`floor (prices + objects + changed bulk lines): ${floor.toFixed(2)} s CPU, ${(floor / 2).toFixed(2)} s on two cores`);
console.log(`with format 2's bulk segments: ${format2.toFixed(2)} s CPU, ${(format2 / 2).toFixed(2)} s on two cores`);
if (opts.full !== undefined) {
  const full = Number(opts.full);
  console.log(`against a full compile of ${full} s: floor ${(floor / 2 / full).toFixed(3)}, with format 2 ${(format2 / 2 / full).toFixed(3)}`);
}
