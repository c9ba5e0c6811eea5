#!/usr/bin/env node
// Prints the id of every card a packed snapshot holds a <range> document for, one a line, in key
// order, from the snapshot's object index (objects.sqlite: there are no per-card folders to list).
// Used by scripts/bench-proxy.sh (the ids of the load) and scripts/bench-edge-cache.sh (a card to
// cache); better-sqlite3 is already a dependency of the proxy, so this needs no sqlite3 command.
//
//   node scripts/lib/card-ids.mjs <snapshot folder> [range]   # range: 30d (default), 3mo, 6mo, 12mo, all
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { argumentsOrUsage } from './arguments.mjs';

const [dir, range = '30d'] = argumentsOrUsage('node scripts/lib/card-ids.mjs <snapshot folder> [30d|3mo|6mo|12mo|all]');
if (!['30d', '3mo', '6mo', '12mo', 'all'].includes(range)) {
  process.stderr.write(`card-ids.mjs: unknown range ${JSON.stringify(range)}; use 30d, 3mo, 6mo, 12mo or all\n`);
  process.exit(64);
}
// `card-ids.mjs ... | head -n 1` closes the pipe early: that is a normal end, not an error.
process.stdout.on('error', (err) => process.exit(err.code === 'EPIPE' ? 0 : 74));
const prefix = 'v1/cards/';
const suffix = `/${range}.json.gz`;
let db;
try {
  db = new Database(join(dir, 'objects.sqlite'), { readonly: true, fileMustExist: true });
} catch (err) {
  process.stderr.write(`card-ids.mjs: ${dir} has no readable objects.sqlite (${err.message}); is it a packed snapshot (catalog compile writes them)?\n`);
  process.exit(66);
}
try {
  // The key is the table's primary key, so the LIKE prefix walks the index in key order.
  const rows = db.prepare('SELECT key FROM objects WHERE key LIKE ? ORDER BY key').iterate(`${prefix}%${suffix}`);
  let out = '';
  for (const { key } of rows) {
    // LIKE's % would also match a key with a slash in the middle; a card id has none.
    const id = key.slice(prefix.length, -suffix.length);
    if (id.includes('/')) continue;
    out += `${id}\n`;
    if (out.length > 65536) {
      process.stdout.write(out);
      out = '';
    }
  }
  process.stdout.write(out);
} finally {
  db.close();
}
