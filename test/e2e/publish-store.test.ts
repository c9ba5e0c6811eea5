/**
 * The object-store commands through the real `catalog` binary against the real Swift server:
 * `catalog publish --from <root> --to s3://…` and `catalog compile --out s3://…` (compile into a working
 * root, fetch the store's current snapshot there when it is missing, publish, prune the store).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3BlobStore } from '../../snapshots/store/blob-s3.js';
import { readStoreCurrent } from '../../snapshots/store/publish-pointer.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { fixtureId, writeFixturePack, writeFixtureSnapshot } from '../helpers/synthetic-packed-root.js';
import { swiftPlan } from '../helpers/swift.js';
import { createTestBucket, type TestBucket } from '../helpers/swift-bucket.js';

const plan = swiftPlan();
if (plan.unavailable) console.warn(`publish-store.test.ts: ${plan.unavailable}`);
const suite = plan.unavailable ? describe.skip : describe;

let env: Record<string, string> = {};
let stopSwift = () => {};
let bucket: TestBucket;

suite('catalog publish and compile --out s3:// (Swift)', () => {
  beforeAll(async () => {
    const started = await plan.start();
    env = started.env;
    stopSwift = started.stop;
    bucket = await createTestBucket(env, 'wt-s3pub-e2e');
  }, 60_000);

  afterAll(async () => {
    await bucket?.remove();
    stopSwift();
  });

  it('catalog publish sends the current snapshot of a local root, then prunes the store with --keep', async () => {
    const root = tempDir('publish-cli-');
    const shared = writeFixturePack(root, 'a', 50);
    await writeFixtureSnapshot(root, fixtureId(1), [shared, writeFixturePack(root, 'b', 10)]);
    const to = `s3://${bucket.name}/cli`;
    const first = await runCli(['publish', '--from', root, '--to', to], { env });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^published ${fixtureId(1)} to ${to}/: 2 of 2 packs uploaded \\(0 already there\\), 4 files, 9 objects, [\\d.]+ KiB in \\d+s \\([\\d.]+ [KM]iB/s\\) -> ${to}/current.json\\n$`));

    await writeFixtureSnapshot(root, fixtureId(2), [shared, writeFixturePack(root, 'c', 10)], fixtureId(1));
    const second = await runCli(['publish', '--from', root, '--to', to, '--keep', '1'], { env });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`published ${fixtureId(2)} to ${to}/: 1 of 2 packs uploaded (1 already there)`);
    expect(second.stdout).toContain(`pruned ${to}/: 1 snapshot removed (${fixtureId(1)}), 1 pack deleted (`);
    expect(second.stdout).toMatch(/; kept 1 snapshot and 2 packs\n$/);
    const store = createS3BlobStore({ bucket: bucket.name, prefix: 'cli/', env });
    expect(await readStoreCurrent(store)).toBe(fixtureId(2));
    await store.close();
  }, 60_000);

  it('catalog publish names what is wrong: a folder --to, a root with nothing compiled, an unreachable endpoint', async () => {
    const empty = tempDir('publish-cli-empty-');
    const folder = await runCli(['publish', '--from', empty, '--to', empty], { env });
    expect([folder.code, folder.stderr]).toEqual([64, `catalog: --to must be s3://bucket/prefix (got ${empty}); to publish into a folder, compile with --out <folder>\n`]);
    const nothing = await runCli(['publish', '--from', empty, '--to', `s3://${bucket.name}/x`], { env });
    expect([nothing.code, nothing.stderr]).toEqual([66, `catalog: ${empty} has no current snapshot; compile one first, or name it with --snapshot\n`]);
    const root = tempDir('publish-cli-down-');
    await writeFixtureSnapshot(root, fixtureId(1), [writeFixturePack(root, 'a', 5)]);
    const down = await runCli(['publish', '--from', root, '--to', `s3://${bucket.name}/x`], { env: { ...env, AWS_ENDPOINT_URL: 'http://127.0.0.1:9' } });
    expect(down.code).toBe(69);
    expect(down.stderr).toMatch(/cannot reach the S3 endpoint http:\/\/127\.0\.0\.1:9 \(ECONNREFUSED\); check AWS_ENDPOINT_URL/);
  }, 60_000);

  it('catalog compile --out s3:// compiles in the working root, publishes, prunes; a new working root fetches the store\'s current first', async () => {
    const dir = tempDir('compile-s3-');
    const source = join(dir, 'catalog');
    expect((await runCli(['generate', '--out', source, '--cards', '120', '--seed', '5'])).code).toBe(0);
    const out = `s3://${bucket.name}/compiled`;
    const store = createS3BlobStore({ bucket: bucket.name, prefix: 'compiled/', env });
    const work = join(dir, 'work');
    const compile = (workRoot: string | null, extraEnv: Record<string, string> = {}) =>
      runCli(['compile', '--source', source, '--out', out, '--keep', '2', '--workers', '1', ...(workRoot ? ['--work', workRoot] : [])], { env: { ...env, ...extraEnv } });

    const first = await compile(work);
    expect(first.stderr).toMatch(new RegExp(`${out}/ has no current.json yet: a full compile, then the first publish`));
    expect(first.code).toBe(0);
    const id1 = /^compiled (\S+):/.exec(first.stdout)![1];
    expect(first.stdout).toMatch(new RegExp(`-> ${work}/current\npublished ${id1} to ${out}/: (\\d+) of \\1 packs uploaded \\(0 already there\\)`));
    expect(first.stdout).toContain(`pruned ${out}/: 0 snapshots removed`);
    // The nightly job's JSON log: the publish's phases in bytes and objects, each step ending with its summary.
    const log = first.stderr.trim().split('\n').map((l) => JSON.parse(l) as { msg: string; phase?: string; count?: number; total?: number });
    const uploaded = log.find((l) => l.msg === 'phase finished' && l.phase?.startsWith('upload packs'));
    expect(uploaded!.count).toBe(uploaded!.total);
    expect(log.filter((l) => l.msg.endsWith(' finished') && l.msg !== 'phase finished').map((l) => l.msg)).toEqual(['compile finished', 'publish finished', 'prune finished']);
    expect(log.some((l) => l.msg === 'phase stopped')).toBe(false);
    expect(await readStoreCurrent(store)).toBe(id1);
    // The store holds exactly the working root's snapshot, byte for byte.
    for await (const item of store.list(`${id1}/`)) expect((await store.get(item.key))!.equals(readFileSync(join(work, item.key))), item.key).toBe(true);

    // 1 price changed: an incremental compile against id1; the publish sends only new packs.
    const prices = join(source, 'prices.ndjson');
    const lines = readFileSync(prices, 'utf8').split('\n');
    const rec = JSON.parse(lines[0]) as { usdCents: (number | null)[] };
    rec.usdCents[rec.usdCents.length - 1] = (rec.usdCents.at(-1) ?? 100) + 7;
    lines[0] = JSON.stringify(rec);
    writeFileSync(prices, lines.join('\n'));
    const second = await compile(work);
    expect(second.code).toBe(0);
    const id2 = /^compiled (\S+):/.exec(second.stdout)![1];
    const sent = /published \S+ to \S+: (\d+) of (\d+) packs uploaded \((\d+) already there\)/.exec(second.stdout)!;
    expect(Number(sent[3])).toBeGreaterThan(0);
    expect(Number(sent[1])).toBeLessThan(Number(sent[2]));
    expect(await readStoreCurrent(store)).toBe(id2);

    // A new host (empty working root, the default one under XDG_CACHE_HOME): the store's current is fetched first.
    const cache = join(dir, 'cache');
    const third = await compile(null, { XDG_CACHE_HOME: cache });
    expect(third.code).toBe(0);
    expect(third.stderr).toMatch(new RegExp(`does not hold ${id2}, the current snapshot of ${out}/: fetching it for an incremental compile`));
    const [workDir] = readdirSync(join(cache, 'catalog', 'work'));
    expect(workDir).toMatch(new RegExp(`^${bucket.name}-[0-9a-f]{12}$`));
    expect(existsSync(join(cache, 'catalog', 'work', workDir, id2, 'manifest.ndjson'))).toBe(true);
    const id3 = /^compiled (\S+):/.exec(third.stdout)![1];
    expect(third.stdout).toMatch(/\(\d+ already there\)/);
    expect(third.stdout).toContain(`pruned ${out}/: 1 snapshot removed (${id1})`);
    expect(await readStoreCurrent(store)).toBe(id3);
    await store.close();
  }, 180_000);
});
