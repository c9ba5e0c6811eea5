#!/usr/bin/env node
/**
 * `npm run bench:pack-index [-- --cards N]`: the object index of the pack design (issue 17) as a table
 * in a snapshot's SQLite file, measured before it is settled: build time, file size and point-lookup
 * rate at N cards (default 1,000,000: about 5.4 million keys, the shape of a real snapshot: five
 * ranges per card, one figure document per ~8 cards, pages of every list).
 *
 * Four ways to build the same table `objects(key, pack, offset, length, sha256, input)` are compared
 * in the same run:
 *   direct   INSERT into a WITHOUT ROWID table keyed by `key`, in the order the compile renders
 *   presorted the same, with the keys sorted in JS first (the compile holds them sorted already, for
 *            the change list)
 *   sorted   INSERT into a rowid staging table, then one INSERT ... SELECT ... ORDER BY key into the
 *            WITHOUT ROWID table (the B-tree is appended to, never split in the middle)
 *   indexed  a rowid table, then CREATE UNIQUE INDEX on key after the inserts
 * Lookups: 200,000 random keys through one prepared statement, after the file is closed and reopened.
 */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { numberOption } from './lib/arguments.mjs';
import { syntheticKeys } from './lib/synthetic-keys.mjs';

const args = process.argv.slice(2);
const CARDS = numberOption(args, '--cards', 1_000_000);
const dir = mkdtempSync(join(tmpdir(), 'bench-pack-index-'));

const keys = () => syntheticKeys(CARDS);

// Digests and fingerprints come from one random pool, so making them does not dominate the build.
const POOL = randomBytes(1 << 24);
const sha = (n) => POOL.subarray((n * 32) % (POOL.length - 32), ((n * 32) % (POOL.length - 32)) + 32);
const INPUTS = Array.from({ length: 4096 }, () => randomBytes(20).toString('base64url').slice(0, 27));
const input = (n) => INPUTS[n % INPUTS.length];

function build(name, { schema, insert, finish, presort }) {
  const file = join(dir, `${name}.sqlite`);
  const t0 = process.hrtime.bigint();
  const db = new Database(file);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('page_size = 4096');
  db.exec(schema);
  const stmt = db.prepare(insert);
  let n = 0;
  let offset = 0;
  const batch = db.transaction((rows) => { for (const r of rows) stmt.run(r); });
  let rows = [];
  for (const key of presort ? [...keys()].sort() : keys()) {
    const length = 700 + (n % 1800);
    rows.push([key, n >> 16, offset, length, sha(n), input(n)]);
    offset += length;
    n++;
    if (rows.length === 50_000) { batch(rows); rows = []; }
  }
  batch(rows);
  if (finish) db.exec(finish);
  db.exec('VACUUM');
  db.close();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { name, file, keys: n, seconds, bytes: statSync(file).size };
}

function lookups(file, query) {
  const db = new Database(file, { readonly: true });
  const stmt = db.prepare(query);
  const all = [...keys()];
  const picks = Array.from({ length: 200_000 }, (_, i) => all[(i * 2654435761) % all.length]);
  const t0 = process.hrtime.bigint();
  let found = 0;
  for (const k of picks) if (stmt.get(k)) found++;
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  db.close();
  if (found !== picks.length) throw new Error(`only ${found} of ${picks.length} keys found`);
  return Math.round(picks.length / seconds);
}

const COLUMNS = 'key TEXT NOT NULL, pack INTEGER NOT NULL, offset INTEGER NOT NULL, length INTEGER NOT NULL, sha256 BLOB NOT NULL, input TEXT';
const VALUES = 'INSERT INTO objects(key, pack, offset, length, sha256, input) VALUES (?, ?, ?, ?, ?, ?)';
const variants = [
  { name: 'direct', schema: `CREATE TABLE objects(${COLUMNS}, PRIMARY KEY (key)) WITHOUT ROWID`, insert: VALUES },
  { name: 'presorted', presort: true, schema: `CREATE TABLE objects(${COLUMNS}, PRIMARY KEY (key)) WITHOUT ROWID`, insert: VALUES },
  {
    name: 'sorted',
    schema: `CREATE TABLE staging(${COLUMNS}); CREATE TABLE objects(${COLUMNS}, PRIMARY KEY (key)) WITHOUT ROWID`,
    insert: VALUES.replace('objects', 'staging'),
    finish: 'INSERT INTO objects SELECT * FROM staging ORDER BY key; DROP TABLE staging',
  },
  { name: 'indexed', schema: `CREATE TABLE objects(${COLUMNS})`, insert: VALUES, finish: 'CREATE UNIQUE INDEX objects_key ON objects(key)' },
];

console.log(`bench:pack-index: ${CARDS} cards, node ${process.version}, ${cpus().length} x ${cpus()[0].model}`);
try {
  for (const v of variants) {
    const r = build(v.name, v);
    const rate = lookups(r.file, 'SELECT pack, offset, length, sha256 FROM objects WHERE key = ?');
    const rss = Math.round(process.memoryUsage().rss / 2 ** 20);
    console.log(`${v.name.padEnd(9)} ${r.keys} keys  build ${r.seconds.toFixed(1)} s  file ${(r.bytes / 2 ** 20).toFixed(0)} MiB  lookups ${rate}/s  rss ${rss} MiB`);
    rmSync(r.file, { force: true });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
