#!/usr/bin/env node
/**
 * `npm run bench:verify -- [--cards N] [--s3 s3://bucket/prefix] [--keep]`: `catalog verify` on a
 * packed snapshot (issue 17) of N cards (default 1,000,000: 5.3 million objects), timed through the
 * real binary under /usr/bin/time. The snapshot is synthetic but shaped like a real one: objects of
 * 400-2,400 bytes (random, so nothing compresses or repeats) in render order (cards, figures, list
 * pages) appended by the project's pack writer into 256 MiB packs, the object index written by
 * writeObjectIndex in key order, a version-2 manifest. With --s3 the root is also uploaded to that
 * location (AWS_* settings from the environment) and verified there.
 */
import Database from '../node_modules/better-sqlite3/lib/index.js';
import { createHash, randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { numberOption } from './lib/arguments.mjs';
import { syntheticKeys } from './lib/synthetic-keys.mjs';
import { createPackWriter } from '../dist/snapshots/packs/pack-writer.js';
import { writeObjectIndex } from '../dist/snapshots/packs/object-index.js';
import { switchCurrent } from '../dist/snapshots/store/pointer.js';
import { openBlobStore } from '../dist/snapshots/store/blob-store.js';
import { createFolderBlobStore } from '../dist/snapshots/store/blob-fs.js';
import { createReadStream } from 'node:fs';

const args = process.argv.slice(2);
const CARDS = numberOption(args, '--cards', 1_000_000);
const s3 = args.includes('--s3') ? args[args.indexOf('--s3') + 1] : null;
const keep = args.includes('--keep');
const ID = '20261125T000000Z-0b0e0c0d';
const BIN = new URL('../bin/catalog.js', import.meta.url).pathname;

const keys = () => syntheticKeys(CARDS);

const sha = (b) => createHash('sha256').update(b).digest('hex');
const root = mkdtempSync(join(tmpdir(), 'bench-verify-'));
const t0 = Date.now();
const POOL = randomBytes(64 * 2 ** 20);
const writer = createPackWriter({ dir: join(root, 'packs') });
const rows = [];
let n = 0;
for (const key of keys()) {
  const length = 400 + ((n * 7919) % 2001);
  const at = (n * 104729) % (POOL.length - length);
  const bytes = POOL.subarray(at, at + length);
  const where = writer.append(bytes);
  rows.push({ key, pack: where.pack, offset: where.offset, length, sha256: sha(bytes), input: null });
  n++;
}
const packs = writer.finish().map((p) => ({ sha256: p.sha256, size: p.size }));
rows.sort((a, b) => (a.key < b.key ? -1 : 1));
mkdirSync(join(root, ID));
const db = new Database(join(root, ID, 'objects.sqlite'));
db.pragma('journal_mode = OFF');
writeObjectIndex(db, packs, rows);
db.close();
rows.length = 0;
writeFileSync(join(root, ID, 'changes.ndjson'), '');
writeFileSync(join(root, ID, 'search.sqlite'), randomBytes(2 ** 20));
const files = ['objects.sqlite', 'search.sqlite', 'changes.ndjson'].map((name) => {
  const bytes = readFileSync(join(root, ID, name));
  return { name, size: bytes.length, sha256: sha(bytes) };
});
const header = {
  format: 'catalog-manifest', version: 2, snapshotId: ID, asOf: null, objects: n, previous: null,
  counts: { new: n, changed: 0, unchanged: 0, removed: 0 }, bulk: [], packs, files,
};
writeFileSync(join(root, ID, 'manifest.ndjson'), JSON.stringify(header) + '\n');
await switchCurrent(root, ID);
const packBytes = packs.reduce((s, p) => s + p.size, 0);
console.log(`built ${root}: ${n} objects in ${packs.length} packs (${(packBytes / 2 ** 30).toFixed(2)} GiB), index ${(files[0].size / 2 ** 20).toFixed(0)} MiB, in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

function verify(location) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e s wall, %U s user, %S s system, %M KiB peak RSS', process.execPath, BIN, 'verify', location], { encoding: 'utf8' });
  console.log(`catalog verify ${location}: exit ${r.status}\n${r.stdout.trim()}\n${r.stderr.trim()}`);
}

try {
  verify(root);
  if (s3) {
    const store = await openBlobStore(s3, '--s3');
    const t1 = Date.now();
    for await (const { key } of createFolderBlobStore(root).list('')) await store.put(key, createReadStream(join(root, key)));
    console.log(`uploaded to ${s3} in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
    verify(s3);
    if (!keep) {
      for await (const { key } of store.list('')) await store.delete(key);
    }
    await store.close();
  }
} finally {
  if (!keep) rmSync(root, { recursive: true, force: true });
}
