#!/usr/bin/env node
// What a V8 heap snapshot holds, by kind: self sizes summed per node type and constructor name
// (strings, plain objects, arrays, ...), largest first. Used for the compile's memory per card in
// docs/benchmarks.md ("A million cards, packed"). Take the snapshot of a running compile with
//
//   CATALOG_COMPILE_TIMINGS=1 node --heapsnapshot-signal=SIGUSR2 bin/catalog.js compile --source <catalog> --out <root>
//   kill -USR2 <its pid>          # the snapshot is written to Heap.<date>.<pid>...heapsnapshot in the working folder
//
// then:  node --max-old-space-size=8000 scripts/heap-snapshot-stats.mjs Heap.*.heapsnapshot [rows]
import { readFileSync } from 'node:fs';

const [file, rowsArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/heap-snapshot-stats.mjs <file.heapsnapshot> [rows, default 30]');
  process.exit(64);
}
const snap = JSON.parse(readFileSync(file, 'utf8'));
const fields = snap.snapshot.meta.node_fields;
const types = snap.snapshot.meta.node_types[0];
const width = fields.length;
const { nodes, strings } = snap;
const iType = fields.indexOf('type');
const iName = fields.indexOf('name');
const iSize = fields.indexOf('self_size');
const byKind = new Map();
let total = 0;
for (let i = 0; i < nodes.length; i += width) {
  const type = types[nodes[i + iType]];
  // Objects, closures and native objects by constructor name; strings and numbers by type alone.
  const named = ['object', 'closure', 'native', 'array', 'hidden', 'code'].includes(type);
  const kind = named ? `${type} ${strings[nodes[i + iName]]}`.slice(0, 80) : type;
  const k = byKind.get(kind) ?? { count: 0, bytes: 0 };
  k.count++;
  k.bytes += nodes[i + iSize];
  total += nodes[i + iSize];
  byKind.set(kind, k);
}
const mib = (b) => (b / 1048576).toFixed(1);
console.log(`${file}: ${mib(total)} MiB in ${(nodes.length / width).toLocaleString('en-US')} nodes`);
console.log('   MiB     count  kind');
for (const [kind, k] of [...byKind].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, Number(rowsArg ?? 30))) {
  console.log(`${mib(k.bytes).padStart(6)} ${String(k.count).padStart(9)}  ${kind}`);
}
