#!/usr/bin/env node
// Put/get throughput of the two BlobStores (`npm run bench:blob`): the folder store in a temp
// folder, and the S3 store against OpenStack Swift on loopback (scripts/servers/swift.sh; started
// for the run and stopped after when it was not running, skipped with a message when not installed).
// Measures small objects (4 KiB, 16 at a time: objects/s), large streamed objects (64 MiB,
// multipart on S3: MB/s) and 4 KiB ranged reads of a large object (ranges/s), each for a bounded
// count. Settings: BLOB_SMALL (objects, 1000), BLOB_LARGE (objects, 4), BLOB_LARGE_MIB (64),
// BLOB_RANGES (2000).
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, DeleteBucketCommand } from '@aws-sdk/client-s3';
import { createFolderBlobStore } from '../dist/snapshots/store/blob-fs.js';
import { createS3BlobStore } from '../dist/snapshots/store/blob-s3.js';
import { createS3Client } from '../dist/snapshots/store/s3-client.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SWIFT = join(ROOT, 'scripts', 'servers', 'swift.sh');
const num = (name, dflt) => {
  const v = Number(process.env[name] ?? dflt);
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a whole number >= 1`);
  return v;
};
const SMALL = num('BLOB_SMALL', 1000);
const LARGE = num('BLOB_LARGE', 4);
const LARGE_MIB = num('BLOB_LARGE_MIB', 64);
const RANGES = num('BLOB_RANGES', 2000);
const CONCURRENCY = 16;

async function pool(count, work) {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < count) await work(next++);
  }));
}
const timed = async (fn) => {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e9;
};
const chunks = (bytes) => Readable.from((function* () {
  for (let at = 0; at < bytes.length; at += 1 << 20) yield bytes.subarray(at, at + (1 << 20));
})());

async function bench(name, store) {
  const small = randomBytes(4096);
  const large = randomBytes(LARGE_MIB << 20);
  const mb = (LARGE * large.length) / 1e6;
  const rows = [];
  let s = await timed(() => pool(SMALL, (i) => store.put(`small/${i}`, small)));
  rows.push(['put 4 KiB', `${Math.round(SMALL / s)} objects/s`]);
  s = await timed(() => pool(SMALL, (i) => store.get(`small/${i}`)));
  rows.push(['get 4 KiB', `${Math.round(SMALL / s)} objects/s`]);
  s = await timed(async () => { for (let i = 0; i < LARGE; i++) await store.put(`large/${i}`, chunks(large)); });
  rows.push([`put ${LARGE_MIB} MiB (stream)`, `${(mb / s).toFixed(0)} MB/s`]);
  s = await timed(async () => { for (let i = 0; i < LARGE; i++) await store.get(`large/${i}`); });
  rows.push([`get ${LARGE_MIB} MiB`, `${(mb / s).toFixed(0)} MB/s`]);
  s = await timed(() => pool(RANGES, () => store.getRange('large/0', Math.floor(Math.random() * (large.length - 4096)), 4096)));
  rows.push(['getRange 4 KiB', `${Math.round(RANGES / s)} ranges/s`]);
  for (const [what, value] of rows) console.log(`| ${name} | ${what} | ${value} |`);
}

console.log(`blob store bench: ${cpus().length} cores, node ${process.version}; ${SMALL} small, ${LARGE} x ${LARGE_MIB} MiB, ${RANGES} ranges, ${CONCURRENCY} at a time`);
console.log('| store | operation | rate |\n|---|---|---|');
const folder = mkdtempSync(join(tmpdir(), 'bench-blob-'));
try {
  await bench('folder', createFolderBlobStore(folder));
} finally {
  rmSync(folder, { recursive: true, force: true });
}

const running = spawnSync('bash', [SWIFT, 'status']).status === 0;
const installed = running || spawnSync('dpkg-query', ['-W', 'swift-proxy']).status === 0;
if (!installed) {
  console.log('S3: skipped, OpenStack Swift is not installed (bash scripts/servers/swift.sh install)');
} else {
  if (!running) execFileSync('bash', [SWIFT, 'start'], { stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    const env = Object.fromEntries([...execFileSync('bash', [SWIFT, 'env'], { encoding: 'utf8' }).matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
    const bucket = `bench-blob-${process.pid}`;
    const { client } = createS3Client(env);
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    const store = createS3BlobStore({ bucket, env });
    await bench('S3 (Swift)', store);
    for await (const { key } of store.list('')) await store.delete(key);
    await client.send(new DeleteBucketCommand({ Bucket: bucket }));
    await store.close();
    client.destroy();
  } finally {
    if (!running) execFileSync('bash', [SWIFT, 'stop'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
}
