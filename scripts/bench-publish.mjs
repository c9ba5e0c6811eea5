#!/usr/bin/env node
// Publishing to an object store (`npm run bench:publish`): generates a catalog (--cards, default
// 100,000), compiles it into a local packed root, and times `catalog publish --from <root> --to
// s3://…` against OpenStack Swift on loopback (scripts/servers/swift.sh: the running server of
// SWIFT_STATE, else started for the run and stopped after); then changes 1% of the prices, compiles
// again (incremental) and publishes again. Reports per publish: wall time of the command, packs and
// bytes sent, MB/s, and objects/s (the snapshot's catalog objects, i.e. URLs, made available per
// second). Last, how the packs a store has are found: one LIST of packs/ against a HEAD per pack.
//
//   npm run bench:publish
//   npm run bench:publish -- --cards 10000
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, DeleteBucketCommand, DeleteObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { createS3BlobStore } from '../dist/snapshots/store/blob-s3.js';
import { createS3Client } from '../dist/snapshots/store/s3-client.js';
import { numberOption } from './lib/arguments.mjs';
import { machineLine } from './lib/machine.mjs';
import { touchOnePercent } from './lib/touch-prices.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SWIFT = join(ROOT, 'scripts', 'servers', 'swift.sh');
const args = process.argv.slice(2);
const cards = numberOption(args, '--cards', 100_000);
const work = join(ROOT, '.bench', `publish-${cards}`);
const catalog = join(work, 'catalog');
const snaps = join(work, 'snapshots');

const running = spawnSync('bash', [SWIFT, 'status']).status === 0;
if (!running) execFileSync('bash', [SWIFT, 'start'], { stdio: ['ignore', 'ignore', 'inherit'] });
const env = {};
for (const m of execFileSync('bash', [SWIFT, 'env'], { encoding: 'utf8' }).matchAll(/^export (AWS_[A-Z0-9_]+)=(.*)$/gm)) env[m[1]] = m[2];
const { client } = createS3Client(env);
const bucket = `bench-publish-${process.pid}-${randomBytes(3).toString('hex')}`;

function cli(argv, extraEnv = {}) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'catalog.js'), ...argv], { encoding: 'utf8', env: { ...process.env, ...extraEnv }, maxBuffer: 64 << 20 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`catalog ${argv.join(' ')} failed (${r.status}): ${r.stderr}`);
  return { seconds, stdout: r.stdout.trim() };
}
const current = () => JSON.parse(readFileSync(join(snaps, 'current.json'), 'utf8')).snapshotId;
const header = (id) => JSON.parse(readFileSync(join(snaps, id, 'manifest.ndjson'), 'utf8').split('\n')[0]);

/** Sizes from the manifest: the packs this publish should send (those the previous one did not list) and the snapshot's files. */
function planned(id, previousId) {
  const h = header(id);
  const before = new Set(previousId ? header(previousId).packs.map((p) => p.sha256) : []);
  const packBytes = h.packs.filter((p) => !before.has(p.sha256)).reduce((n, p) => n + p.size, 0);
  const fileBytes = [...h.files, ...h.bulk].reduce((n, f) => n + f.size, 0);
  return { objects: h.objects, packBytes, fileBytes };
}

function publish(label, previousId) {
  const id = current();
  const plan = planned(id, previousId);
  const r = cli(['publish', '--from', snaps, '--to', `s3://${bucket}/bench`, '--keep', '2'], env);
  const m = /: (\d+) of (\d+) packs uploaded .*?, (\d+) files, (\d+) objects, ([\d.]+) (B|KiB|MiB|GiB)/.exec(r.stdout);
  const bytes = Number(m[5]) * { B: 1, KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30 }[m[6]];
  const mb = (n) => (n / 1e6).toFixed(1);
  return `| ${label} | ${plan.objects.toLocaleString('en-US')} | ${m[1]} of ${m[2]} | ${mb(plan.packBytes)} | ${mb(plan.fileBytes)} | ${m[4]} | ${mb(bytes)} | ${r.seconds.toFixed(2)} | ${(bytes / 1e6 / r.seconds).toFixed(1)} | ${Math.round(plan.objects / r.seconds).toLocaleString('en-US')} |`;
}

/** Median of 5 timings (ms) of `fn`, after one warm-up request so neither side pays for the connection. */
async function median(fn) {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const t = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return times.sort((a, b) => a - b)[2];
}

async function packCheck() {
  const store = createS3BlobStore({ bucket, prefix: 'bench/', env });
  await store.head('current.json');
  const keys = [];
  for await (const item of store.list('packs/')) keys.push(item.key);
  const list = await median(async () => { for await (const item of store.list('packs/')) void item; });
  const heads = await median(async () => { for (const key of keys) await store.head(key); });
  await store.close();
  return `pack check for ${keys.length} packs (median of 5, warm connection): one LIST ${list.toFixed(1)} ms, a HEAD each ${heads.toFixed(1)} ms (${(heads / Math.max(keys.length, 1)).toFixed(1)} ms per HEAD)`;
}

async function emptyBucket() {
  for (let token, more = true; more; ) {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
    await Promise.all((page.Contents ?? []).map((o) => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: o.Key }))));
    token = page.NextContinuationToken;
    more = page.IsTruncated === true;
  }
  await client.send(new DeleteBucketCommand({ Bucket: bucket }));
}

await client.send(new CreateBucketCommand({ Bucket: bucket }));
try {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  process.stderr.write(`generating ${cards} cards...\n`);
  cli(['generate', '--out', catalog, '--cards', String(cards), '--seed', '7']);
  process.stderr.write('compiling (full)...\n');
  cli(['compile', '--source', catalog, '--out', snaps]);
  const rows = [];
  process.stderr.write('publishing (full)...\n');
  const fullId = current();
  rows.push(publish('full', null));
  const changed = await touchOnePercent(catalog);
  process.stderr.write(`compiling (incremental, ${changed} price series changed)...\n`);
  cli(['compile', '--source', catalog, '--out', snaps]);
  process.stderr.write('publishing (incremental)...\n');
  rows.push(publish('incremental (1% of prices)', fullId));
  console.log(`publish bench: ${cards.toLocaleString('en-US')} cards, Swift 2.30 (s3api) on loopback, catalog publish --keep 2`);
  console.log(machineLine());
  console.log('| publish | catalog objects | packs sent | pack MB | file MB | store objects written | MB sent | wall s | MB/s | catalog objects/s |\n|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log(await packCheck());
} finally {
  await emptyBucket();
  client.destroy();
  if (!running) spawnSync('bash', [SWIFT, 'stop']);
}
