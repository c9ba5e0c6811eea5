/**
 * `catalog mirror --to s3://bucket/prefix` through the real CLI, from a real origin (`catalog serve`
 * over a signed compile) to the real Swift server: the sync runs in a local working root, then the
 * snapshot is published to the store (packs the store lacks, files, signature, manifest,
 * current.json last) and `catalog verify s3://…` accepts it. After the origin recompiles, a mirror
 * from a NEW working root (another machine) first takes the store's current snapshot from the store,
 * so only the new packs come from the origin and go up; a publish killed before current.json is
 * finished by the next run. An origin that itself serves from the store (`serve --snapshots s3://`) is
 * mirrored into a folder with the same packs. A prefix that holds other data and
 * `--layout files` are refused before anything is written.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManifestHeader } from '../../snapshots/manifest.js';
import { createS3BlobStore } from '../../snapshots/store/blob-s3.js';
import { readStoreCurrent } from '../../snapshots/store/publish-pointer.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { startMirrorOrigin } from '../helpers/mirror-origin.js';
import { type ServerProcess } from '../helpers/server-process.js';
import { swiftPlan } from '../helpers/swift.js';
import { createTestBucket, type TestBucket } from '../helpers/swift-bucket.js';

const plan = swiftPlan();
if (plan.unavailable) console.warn(`store-mirror.e2e.test.ts: ${plan.unavailable}`);
const suite = plan.unavailable ? describe.skip : describe;

let env: Record<string, string> = {};
let stopSwift = () => {};
let bucket: TestBucket;
let dir: string;
let server: ServerProcess | null = null;

const keys = () => join(dir, 'keys');
const pub = () => join(keys(), 'signing-key.pub.pem');
const origin = () => join(dir, 'origin');
const headerOf = (): ManifestHeader => JSON.parse(readFileSync(join(origin(), 'current', 'manifest.ndjson'), 'utf8').split('\n')[0]);

function mirror(to: string, work: string, ...more: string[]) {
  return runCli(['mirror', '--from', server!.url, '--key', `@${join(dir, 'key.txt')}`, '--to', to, '--work', work, '--public-key', pub(), ...more], { env });
}

async function compileOrigin(): Promise<void> {
  const r = await runCli(['compile', '--source', join(dir, 'catalog'), '--out', origin(), '--sign-key', join(keys(), 'signing-key.pem'), '--workers', '1']);
  expect(r.code, r.stderr).toBe(0);
}

suite('catalog mirror --to s3:// (Swift)', () => {
  beforeAll(async () => {
    const started = await plan.start();
    env = started.env;
    stopSwift = started.stop;
    bucket = await createTestBucket(env, 'wt-mirror2');
    dir = tempDir('catalog-store-mirror-');
    for (const args of [['generate', '--out', join(dir, 'catalog'), '--cards', '150', '--seed', '9'], ['signing', 'init', '--out', keys()]]) {
      const r = await runCli(args);
      expect(r.code, r.stderr).toBe(0);
    }
    await compileOrigin();
    server = await startMirrorOrigin(dir, origin(), pub());
  }, 120_000);

  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await bucket?.remove();
    stopSwift();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('mirrors into the store through a working root, verifies there, and a second machine fetches only the new packs', async () => {
    const to = `s3://${bucket.name}/mirror`;
    const first = await mirror(to, join(dir, 'work-a'));
    expect(first.code, first.stderr).toBe(0);
    const id1 = headerOf().snapshotId;
    const packs1 = headerOf().packs!.length;
    expect(first.stdout).toContain(`mirrored ${id1} (packed): ${headerOf().objects} objects in ${packs1} packs (${packs1} fetched`);
    expect(first.stdout).toContain(`published ${id1} to ${to}/: ${packs1} of ${packs1} packs uploaded (0 already there)`);
    expect(first.stdout).toContain(`pruned ${to}/: 0 snapshots removed`);
    const store = createS3BlobStore({ bucket: bucket.name, prefix: 'mirror/', env });
    try {
      expect(await readStoreCurrent(store)).toBe(id1);
      expect(JSON.parse((await store.get('catalog-mirror.json'))!.toString('utf8'))).toMatchObject({ format: 'catalog-mirror', origin: server!.url });
      const v = await runCli(['verify', to, '--public-key', pub()], { env });
      expect(v.code, v.stderr).toBe(0);
      expect(v.stdout).toContain(`snapshot ${id1}: ${headerOf().objects} objects verified in ${packs1} packs`);
      expect(v.stdout).toContain('manifest signature valid');

      // The origin changes 1% of its cards; another machine (an empty working root) mirrors.
      const cardsPath = join(dir, 'catalog', 'cards.ndjson');
      const lines = readFileSync(cardsPath, 'utf8').trim().split('\n');
      writeFileSync(cardsPath, lines.map((l, i) => (i % 100 === 0 ? JSON.stringify({ ...JSON.parse(l), imageUrl: 'https://images.example.invalid/new.jpg' }) : l)).join('\n') + '\n');
      const before = new Set(headerOf().packs!.map((p) => p.sha256));
      await compileOrigin();
      const id2 = headerOf().snapshotId;
      const fresh = headerOf().packs!.filter((p) => !before.has(p.sha256)).length;
      const total = headerOf().packs!.length;
      expect(fresh).toBeGreaterThan(0);
      expect(fresh).toBeLessThan(total);
      const second = await mirror(to, join(dir, 'work-b'));
      expect(second.code, second.stderr).toBe(0);
      expect(second.stderr).toContain(`holds no snapshot: fetching ${id1}, the current snapshot of ${to}/, from the store first`);
      expect(second.stdout).toContain(`mirrored ${id2} (packed): ${headerOf().objects} objects in ${total} packs (${fresh} fetched`);
      expect(second.stdout).toContain(`; ${total - fresh} already held; 0 resumed)`);
      expect(second.stdout).toContain(`(was ${id1})`);
      expect(second.stdout).toContain(`published ${id2} to ${to}/: ${fresh} of ${total} packs uploaded (${total - fresh} already there)`);
      expect(await readStoreCurrent(store)).toBe(id2);
      const v2 = await runCli(['verify', to, '--public-key', pub()], { env });
      expect(v2.code, v2.stderr).toBe(0);

      // Up to date: one request to the origin, nothing published.
      const again = await mirror(to, join(dir, 'work-b'));
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toBe(`mirror ${to}/ is up to date at ${id2} (signature checked)\n`);

      // A publish killed before its pointer (current.json written last): the next run finishes it, sending no pack again.
      await store.delete('current.json');
      const resumed = await mirror(to, join(dir, 'work-b'));
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toContain(`mirror ${join(dir, 'work-b')} is up to date at ${id2}`);
      expect(resumed.stdout).toContain(`published ${id2} to ${to}/: 0 of ${total} packs uploaded (${total} already there)`);
      expect(await readStoreCurrent(store)).toBe(id2);
    } finally {
      await store.close();
    }
  }, 240_000);

  it('refuses a prefix that holds other data, and --layout files, writing nothing', async () => {
    const store = createS3BlobStore({ bucket: bucket.name, prefix: 'theirs/', env });
    try {
      await store.put('precious.txt', Buffer.from('keep me'));
      const refused = await mirror(`s3://${bucket.name}/theirs`, join(dir, 'work-c'));
      expect(refused.code).toBe(64);
      expect(refused.stderr).toContain(`--to s3://${bucket.name}/theirs/ is not empty (it holds precious.txt) and is not a catalog mirror`);
      const left: string[] = [];
      for await (const item of store.list('')) left.push(item.key);
      expect(left).toEqual(['precious.txt']);
    } finally {
      await store.close();
    }
    const files = await mirror(`s3://${bucket.name}/files`, join(dir, 'work-d'), '--layout', 'files');
    expect(files.code).toBe(64);
    expect(files.stderr).toContain('--layout files needs a folder --to');
  }, 60_000);

  it('mirrors an origin that serves from the object store (serve --snapshots s3://) into a folder, with the same packs', async () => {
    const from = `s3://${bucket.name}/origin`;
    const published = await runCli(['publish', '--from', origin(), '--to', from], { env });
    expect(published.code, published.stderr).toBe(0);
    const s3dir = join(dir, 's3-origin');
    mkdirSync(s3dir);
    const s3server = await startMirrorOrigin(s3dir, from, pub(), env);
    try {
      const to = join(dir, 'from-s3');
      const r = await runCli(['mirror', '--from', s3server.url, '--key', `@${join(s3dir, 'key.txt')}`, '--to', to, '--public-key', pub()]);
      expect(r.code, r.stderr).toBe(0);
      const h = headerOf();
      expect(r.stdout).toContain(`mirrored ${h.snapshotId} (packed): ${h.objects} objects in ${h.packs!.length} packs (${h.packs!.length} fetched`);
      for (const p of h.packs!) expect(readFileSync(join(to, 'packs', `${p.sha256}.pack`)).equals(readFileSync(join(origin(), 'packs', `${p.sha256}.pack`)))).toBe(true);
      const v = await runCli(['verify', to, '--public-key', pub()]);
      expect(v.code, v.stderr).toBe(0);
    } finally {
      s3server.child.kill('SIGTERM');
      await s3server.exited;
    }
  }, 120_000);
});
