#!/usr/bin/env node
// How a document bulk file's segmentation trades size against incremental work (issue 17,
// compiler/bulk/segmented-gzip.ts). Takes the lines of an existing bulk file (any gzip file of JSON
// lines with an `id`), cuts them into segments under each given rule, and compresses them at level 6
// as the writer does (a sync flush after each; with a dictionary, the tail of the segment before as
// zlib's preset dictionary). Reports the size against one gzip stream of the same lines, the segment
// table's size, the time of a full build, and, for 1% of the lines marked changed (a fixed hash of
// the line number), the share of the bytes an incremental build compresses again (a changed segment,
// and with a dictionary the segment after it) and the time that takes.
//
//   node scripts/bench-bulk-segments.mjs <snapshot>/bulk/cards.ndjson.gz [--lines 50000] [spread,min,max,dictionary ...]
//   node scripts/bench-bulk-segments.mjs f.gz 64,1,1e9,0 10,5,15,12288     # format 1 against format 2
import { readFileSync } from 'node:fs';
import { constants, deflateRawSync, gunzipSync } from 'node:zlib';
import { argumentsOrUsage, numberOption } from './lib/arguments.mjs';
import { machineLine } from './lib/machine.mjs';

const args = argumentsOrUsage('node scripts/bench-bulk-segments.mjs <bulk file> [--lines N] [spread,min,max,dictionary ...]');
const file = args[0];
const limit = numberOption(args, '--lines', 50_000);
const rules = args.slice(1).filter((a, i, all) => a !== '--lines' && all[i - 1] !== '--lines');
const configs = (rules.length > 0 ? rules : ['64,1,1e9,0', '16,8,24,0', '12,6,18,8192', '10,5,15,8192', '10,5,15,12288', '8,4,16,12288']).map((c) => c.split(',').map(Number));

const text = gunzipSync(readFileSync(file));
const lines = [];
for (let s = 0, i = text.indexOf(10); i >= 0 && lines.length < limit; s = i + 1, i = text.indexOf(10, s)) lines.push(text.subarray(s, i + 1));
const all = Buffer.concat(lines);
const keys = lines.map((l) => JSON.parse(l.toString()).id);
// FNV-1a, as segmented-gzip.ts hashes keys.
const fnv = (key) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
};
const one = deflateRawSync(all, { level: 6 }).length;
const changed = lines.map((_, i) => fnv(`line ${i}`) % 100 === 0);

console.log(machineLine());
console.log(`command: node scripts/bench-bulk-segments.mjs ${args.join(' ')}`);
console.log(`${lines.length} lines, ${all.length} bytes, ${changed.filter(Boolean).length} marked changed; one gzip stream: ${one} bytes`);
console.log('');
console.log('| spread | min | max | dictionary | segments | size / one stream | table bytes | full build ms | bytes compressed again | incremental ms |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const [spread, min, max, dictionary] of configs) {
  const segments = [];
  for (let i = 0, start = 0; i < lines.length; i++) {
    const n = i + 1 - start;
    if ((n >= min && fnv(keys[i]) % spread === 0) || n >= max || i === lines.length - 1) {
      segments.push([start, i + 1]);
      start = i + 1;
    }
  }
  const touched = segments.map(([a, b]) => changed.slice(a, b).some(Boolean));
  let size = 0;
  let table = 0;
  let again = 0;
  let againNs = 0n;
  let before = null;
  const t0 = process.hrtime.bigint();
  for (let k = 0; k < segments.length; k++) {
    const segment = Buffer.concat(lines.slice(segments[k][0], segments[k][1]));
    const options = { level: 6, finishFlush: constants.Z_SYNC_FLUSH };
    if (dictionary > 0 && before) options.dictionary = before.subarray(Math.max(0, before.length - dictionary));
    const s0 = process.hrtime.bigint();
    const bytes = deflateRawSync(segment, options);
    const ns = process.hrtime.bigint() - s0;
    size += bytes.length;
    // The segment's table entry, its CRC-32 counted as 8 hex digits (the most it takes).
    table += `${bytes.length}:ffffffff:${segment.length} `.length;
    if (touched[k] || (dictionary > 0 && k > 0 && touched[k - 1])) {
      again += segment.length;
      againNs += ns;
    }
    before = segment;
  }
  const fullMs = Number(process.hrtime.bigint() - t0) / 1e6;
  console.log(`| ${spread} | ${min} | ${max} | ${dictionary} | ${segments.length} | ${(size / one).toFixed(3)} | ${table} | ${fullMs.toFixed(0)} | ${(again / all.length).toFixed(3)} | ${(Number(againNs) / 1e6).toFixed(0)} |`);
}
