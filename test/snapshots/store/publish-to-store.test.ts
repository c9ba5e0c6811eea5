/**
 * Publishing packed snapshots to a real S3 server (OpenStack Swift with s3api, shared by the tests:
 * test/helpers/swift.ts) and pruning there. The failure cases wrap the REAL S3 store: a wrapper that
 * throws after the Nth PUT stands for a publish killed between two steps.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3BlobStore } from '../../../snapshots/store/blob-s3.js';
import type { BlobStore } from '../../../snapshots/store/blob-store.js';
import { isCatalogError } from '../../../snapshots/errors.js';
import { manifestKey, packKey } from '../../../snapshots/store/publish-contents.js';
import { readStoreCurrent } from '../../../snapshots/store/publish-pointer.js';
import { pruneStore } from '../../../snapshots/store/publish-prune.js';
import { publishToStore } from '../../../snapshots/store/publish-to-store.js';
import { fetchSnapshotFromStore } from '../../../snapshots/store/publish-fetch.js';
import { readCurrentId } from '../../../snapshots/store/pointer.js';
import type { StoreProgress } from '../../../snapshots/store/publish-progress.js';
import { tempDir } from '../../helpers/cli.js';
import { fixtureId, writeFixturePack, writeFixtureSnapshot, type FixturePack } from '../../helpers/synthetic-packed-root.js';
import { swiftPlan } from '../../helpers/swift.js';
import { createTestBucket, type TestBucket } from '../../helpers/swift-bucket.js';

const plan = swiftPlan();
if (plan.unavailable) console.warn(`publish-to-store.test.ts: ${plan.unavailable}`);
const suite = plan.unavailable ? describe.skip : describe;

let env: Record<string, string> = {};
let stopSwift = () => {};
let bucket: TestBucket;
let prefixes = 0;
const MiB = 1024 * 1024;

/** A fresh prefix of the test bucket, multipart from 5 MiB (so a 6 MiB pack goes up in parts). */
const freshStore = () => createS3BlobStore({ bucket: bucket.name, prefix: `p${++prefixes}/`, env, partSize: 5 * MiB, pageSize: 50 });

/** The real store, with every PUT and DELETE recorded and, optionally, a failure after the Nth PUT or DELETE. */
function watched(store: BlobStore, o: { failAfterPuts?: number; failAfterDeletes?: number } = {}) {
  const puts: string[] = [];
  const deletes: string[] = [];
  const wrapper: BlobStore = {
    ...store,
    location: store.location,
    async put(key, body, options) {
      if (o.failAfterPuts !== undefined && puts.length >= o.failAfterPuts) {
        (body as { destroy?: () => void }).destroy?.();
        throw new Error(`killed before PUT ${key}`);
      }
      puts.push(key);
      await store.put(key, body, options);
    },
    async delete(key) {
      if (o.failAfterDeletes !== undefined && deletes.length >= o.failAfterDeletes) throw new Error(`killed before DELETE ${key}`);
      deletes.push(key);
      await store.delete(key);
    },
  };
  return { store: wrapper, puts, deletes };
}

async function storeKeys(store: BlobStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const item of store.list('')) keys.push(item.key);
  return keys;
}

/** Every key in the store holds exactly the local file's bytes; returns the keys. */
async function expectSameAsLocal(store: BlobStore, root: string): Promise<string[]> {
  const keys = await storeKeys(store);
  // The local root's current.json names its newest snapshot, not necessarily the one published.
  for (const key of keys.filter((k) => k !== 'current.json')) {
    const remote = await store.get(key);
    expect(remote!.equals(readFileSync(join(root, key))), key).toBe(true);
  }
  return keys;
}

suite('publishing packed snapshots to S3 (Swift)', () => {
  // One local root with snapshots 1-4 sharing packs as incremental compiles do:
  //   1: p1 (6 MiB, multipart), p2    2: p1, p3    3: p1, p3, p4    4: p3, p4, p5
  const root = tempDir('publish-store-');
  const p: FixturePack[] = [];
  beforeAll(async () => {
    const started = await plan.start();
    env = started.env;
    stopSwift = started.stop;
    bucket = await createTestBucket(env, 'wt-s3pub-publish');
    p[1] = writeFixturePack(root, 'a', 3000, 2100);
    for (const n of [2, 3, 4, 5]) p[n] = writeFixturePack(root, `n${n}`, 40);
    await writeFixtureSnapshot(root, fixtureId(1), [p[1], p[2]]);
    await writeFixtureSnapshot(root, fixtureId(2), [p[1], p[3]], fixtureId(1));
    await writeFixtureSnapshot(root, fixtureId(3), [p[1], p[3], p[4]], fixtureId(2));
    await writeFixtureSnapshot(root, fixtureId(4), [p[3], p[4], p[5]], fixtureId(3));
  }, 60_000);

  afterAll(async () => {
    await bucket?.remove();
    stopSwift();
  });

  it('publishes a snapshot key by key as in the local root, current.json last, and reports bytes and objects', async () => {
    const { store, puts } = watched(freshStore());
    const phases: { name: string; total: number | null; done: number }[] = [];
    const progress: StoreProgress = { phase: (name, total) => phases.push({ name, total, done: 0 }), advance: (n) => (phases.at(-1)!.done += n), note() {} };
    const s = await publishToStore({ from: root, snapshotId: fixtureId(1), store, progress });

    expect(s.packs).toEqual({ listed: 2, uploaded: 2, present: 0, bytes: p[1].size + p[2].size });
    expect(s.files.uploaded).toBe(4); // objects.sqlite, search.sqlite, changes.ndjson, bulk/cards.ndjson.gz
    expect(s.objects).toBe(2 + 4 + 2 + 1);
    // The order that makes it atomic: packs, files, signature, manifest, pointer.
    const id = fixtureId(1);
    expect(new Set(puts.slice(0, 2))).toEqual(new Set([packKey(p[1].sha256), packKey(p[2].sha256)]));
    expect(puts.slice(2, 6).every((k) => k.startsWith(`${id}/`))).toBe(true);
    expect(puts.slice(6)).toEqual([`${id}/manifest.ndjson.sig`, manifestKey(id), 'current.json']);
    // Progress: every byte of the packs, then of the files, then a HEAD per pack and file.
    expect(phases[0]).toMatchObject({ total: s.packs.bytes, done: s.packs.bytes });
    expect(phases[1]).toMatchObject({ total: s.files.bytes, done: s.files.bytes });
    expect(phases[2]).toMatchObject({ total: 6, done: 6 });

    const keys = await expectSameAsLocal(store, root);
    expect(keys).toHaveLength(9);
    expect(await readStoreCurrent(store)).toBe(id);
    expect(JSON.parse((await store.get('current.json'))!.toString())).toEqual({ snapshotId: id });
    await store.close();
  }, 60_000);

  it('a second publish after an incremental compile uploads only the new pack (one listing, no HEAD per pack)', async () => {
    const base = freshStore();
    await publishToStore({ from: root, snapshotId: fixtureId(1), store: base });
    for (const packCheck of ['list', 'head'] as const) {
      const { store, puts } = watched(base);
      const s = await publishToStore({ from: root, snapshotId: fixtureId(2), store, packCheck });
      expect(s.packs).toMatchObject({ uploaded: packCheck === 'list' ? 1 : 0, present: packCheck === 'list' ? 1 : 2 });
      expect(puts.filter((k) => k.startsWith('packs/'))).toEqual(packCheck === 'list' ? [packKey(p[3].sha256)] : []);
    }
    expect(await readStoreCurrent(base)).toBe(fixtureId(2));
    await expectSameAsLocal(base, root);
    await base.close();
  }, 60_000);

  it('a publish killed after any number of PUTs leaves current.json on the previous snapshot, and a rerun finishes it', async () => {
    const base = freshStore();
    await publishToStore({ from: root, snapshotId: fixtureId(2), store: base });
    const id = fixtureId(3);
    // Snapshot 3 is 1 new pack + 4 files + signature + manifest + pointer = 8 PUTs, 7 once a killed run
    // has sent the pack: killed before each of them in turn.
    for (let n = 0; n < 7; n++) {
      const { store, puts } = watched(base, { failAfterPuts: n });
      const err = await publishToStore({ from: root, snapshotId: id, store }).then(() => null, (e: unknown) => e);
      expect((err as Error | null)?.message, `after ${n} PUTs`).toMatch(/^killed before PUT/);
      expect(puts).toHaveLength(n);
      expect(await readStoreCurrent(base), `after ${n} PUTs`).toBe(fixtureId(2));
      // A manifest, once there, vouches only for what is there.
      if ((await base.head(manifestKey(id))) !== null) {
        for (const pack of [p[1], p[3], p[4]]) expect(await base.head(packKey(pack.sha256))).not.toBeNull();
        expect(await base.head(`${id}/objects.sqlite`)).not.toBeNull();
      }
    }
    const { store, puts } = watched(base);
    const s = await publishToStore({ from: root, snapshotId: id, store });
    expect(s.packs.uploaded).toBe(0); // the killed runs sent p4 already
    expect(puts.at(-1)).toBe('current.json');
    expect(await readStoreCurrent(base)).toBe(id);
    await base.close();
  }, 120_000);

  it('refuses before sending anything when a local file is not the size the manifest says', async () => {
    const broken = tempDir('publish-broken-');
    const pack = writeFixturePack(broken, 'b', 5);
    await writeFixtureSnapshot(broken, fixtureId(1), [pack]);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(broken, fixtureId(1), 'changes.ndjson'), 'truncated');
    const { store, puts } = watched(freshStore());
    const err = await publishToStore({ from: broken, snapshotId: fixtureId(1), store }).catch((e: unknown) => e);
    expect(isCatalogError(err) && err.code).toBe('corrupt_object');
    expect((err as Error).message).toMatch(/changes\.ndjson is 9 bytes, the manifest says \d+; nothing was published: run catalog verify/);
    expect(puts).toEqual([]);
    await store.close();
  });

  it('prune keeps the newest N complete snapshots and the current one, and deletes only packs no kept manifest references', async () => {
    const store = freshStore();
    for (const n of [1, 2, 3, 4]) await publishToStore({ from: root, snapshotId: fixtureId(n), store });
    const r = await pruneStore(store, { keep: 2 });
    expect(r.kept).toEqual([fixtureId(3), fixtureId(4)]);
    expect(r.removed).toEqual([fixtureId(1), fixtureId(2)]);
    expect(r.packs).toMatchObject({ deleted: 1, kept: 4, bytesFreed: p[2].size, skipped: false });
    const keys = await storeKeys(store);
    expect(keys.filter((k) => k.startsWith('packs/')).sort()).toEqual([p[1], p[3], p[4], p[5]].map((x) => packKey(x.sha256)).sort());
    expect(keys.some((k) => k.startsWith(fixtureId(1)) || k.startsWith(fixtureId(2)))).toBe(false);
    // What is left reads back exactly as the local root.
    await expectSameAsLocal(store, root);

    // A rollback (current on an older snapshot) keeps it whatever --keep says.
    const { writeStoreCurrent } = await import('../../../snapshots/store/publish-pointer.js');
    await writeStoreCurrent(store, fixtureId(3));
    const again = await pruneStore(store, { keep: 1 });
    expect(again.kept).toEqual([fixtureId(3), fixtureId(4)]);
    expect(again.packs.deleted).toBe(0);
    await store.close();
  }, 120_000);

  it('prune with --keep-daily keeps the newest N plus the newest snapshot of each of the last D days (retention.ts), as the folder prune does', async () => {
    const days = tempDir('publish-store-days-');
    const ids = ['20261120T020000Z-000000d1', '20261121T020000Z-000000d2', '20261121T140000Z-000000d3', '20261122T020000Z-000000d4'];
    const packs = ids.map((_, i) => writeFixturePack(days, `d${i}`, 20));
    for (const [i, id] of ids.entries()) await writeFixtureSnapshot(days, id, [packs[i]], i === 0 ? undefined : ids[i - 1]);
    const store = freshStore();
    for (const id of ids) await publishToStore({ from: days, snapshotId: id, store });
    const r = await pruneStore(store, { keep: 1, keepDaily: 2 });
    expect(r.kept).toEqual([ids[2], ids[3]]);
    expect(r.removed).toEqual([ids[0], ids[1]]);
    expect(r.packs).toMatchObject({ deleted: 2, kept: 2 });
    await expect(pruneStore(store, { keep: 1, keepDaily: -1 })).rejects.toThrow(/--keep-daily must be/);
    await store.close();
  }, 120_000);

  it('a prune killed half-way leaves a snapshot without its manifest (incomplete), which the next prune removes', async () => {
    const base = freshStore();
    for (const n of [1, 2]) await publishToStore({ from: root, snapshotId: fixtureId(n), store: base });
    const { store, deletes } = watched(base, { failAfterDeletes: 1 });
    await expect(pruneStore(store, { keep: 1 })).rejects.toThrow(/killed before DELETE/);
    expect(deletes).toEqual([manifestKey(fixtureId(1))]);
    const r = await pruneStore(base, { keep: 1 });
    expect(r.removed).toEqual([fixtureId(1)]);
    expect(r.packs.deleted).toBe(1); // p2
    expect((await storeKeys(base)).filter((k) => !k.startsWith('packs/')).every((k) => k === 'current.json' || k.startsWith(fixtureId(2)))).toBe(true);
    await base.close();
  }, 60_000);

  it('an incomplete snapshot newer than current (a publish that may be running) is left alone, and so are the packs', async () => {
    const base = freshStore();
    await publishToStore({ from: root, snapshotId: fixtureId(1), store: base });
    await publishToStore({ from: root, snapshotId: fixtureId(2), store: base });
    // Snapshot 3's publish "in progress": its pack and files are up, its manifest is not.
    const { store } = watched(base, { failAfterPuts: 5 });
    await publishToStore({ from: root, snapshotId: fixtureId(3), store }).catch(() => undefined);
    const notes: string[] = [];
    const r = await pruneStore(base, { keep: 1, progress: { phase() {}, advance() {}, note: (l) => notes.push(l) } });
    expect(r.removed).toEqual([fixtureId(1)]);
    expect(r.inProgress).toEqual([fixtureId(3)]);
    expect(r.packs).toMatchObject({ skipped: true, deleted: 0 });
    expect(notes.join('\n')).toMatch(/no pack is deleted this time/);
    expect(await base.head(packKey(p[2].sha256))).not.toBeNull();
    // Once a later publish is current, the leftover is older than it and goes, and so does p2.
    await publishToStore({ from: root, snapshotId: fixtureId(4), store: base });
    const later = await pruneStore(base, { keep: 1 });
    expect(later.removed).toEqual([fixtureId(2), fixtureId(3)]);
    expect(later.packs.deleted).toBe(2); // p1 and p2: snapshot 4 holds p3, p4, p5
    await base.close();
  }, 120_000);

  it('fetches the store\'s current snapshot into an empty working root byte for byte, then only what it lacks; a pack that does not hash right is refused', async () => {
    const store = freshStore();
    await publishToStore({ from: root, snapshotId: fixtureId(2), store });
    const work = tempDir('publish-fetch-');
    const first = await fetchSnapshotFromStore({ store, snapshotId: fixtureId(2), to: work, chunkBytes: 1024 * 1024 });
    expect(first).toEqual({ files: 2 + 4, bytes: expect.any(Number), present: 0 });
    expect(await readCurrentId(work)).toBe(fixtureId(2));
    for (const key of await storeKeys(store)) {
      if (key !== 'current.json') expect(readFileSync(join(work, key)).equals(readFileSync(join(root, key))), key).toBe(true);
    }
    expect((await fetchSnapshotFromStore({ store, snapshotId: fixtureId(2), to: work })).files).toBe(0);

    // Same size, other bytes: caught by the hash, nothing renamed into place, current not switched.
    const pack = packKey(p[3].sha256);
    await store.put(pack, Buffer.alloc(p[3].size, 1));
    const other = tempDir('publish-fetch-bad-');
    const err = await fetchSnapshotFromStore({ store, snapshotId: fixtureId(2), to: other }).then(() => null, (e: unknown) => e);
    expect(isCatalogError(err) && err.code).toBe('corrupt_object');
    expect((err as Error).message).toContain(`${pack} has SHA-256`);
    expect(await readCurrentId(other)).toBeNull();
    await store.close();
  }, 60_000);
});
