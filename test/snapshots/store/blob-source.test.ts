/**
 * The proxy serving packed snapshots from an object store (snapshots/store/blob-source.ts) against
 * the real Swift server: one compiled catalog (two snapshots), its packed root copied into a bucket,
 * and the answers of createApp over the bucket compared with those over the folder, byte for byte
 * and header for header. Then what only a remote store shows: a publish picked up by polling, a
 * missing pack, an unreadable store in /readyz, a version-1 snapshot, and the bounds of the cache.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestHeader } from '../../helpers/snapshot-files.js';
import { createApp } from '../../../proxy/app.js';
import { loadConfig } from '../../../proxy/config.js';
import { createKeyStore } from '../../../proxy/keys/store.js';
import { openStateDb, type StateDb } from '../../../proxy/state/open.js';
import { isCatalogError } from '../../../snapshots/errors.js';
import { OBJECT_INDEX_FILE, PACKS_DIR } from '../../../snapshots/keys.js';
import { createBlobSnapshotSource, type BlobSnapshotSource } from '../../../snapshots/store/blob-source.js';
import { createFolderBlobStore } from '../../../snapshots/store/blob-fs.js';
import type { BlobStore } from '../../../snapshots/store/blob-store.js';
import { createS3BlobStore } from '../../../snapshots/store/blob-s3.js';
import { createFsSnapshotSource } from '../../../snapshots/store/fs.js';
import { CURRENT_JSON } from '../../../snapshots/store/pointer.js';
import type { SnapshotSource } from '../../../snapshots/store/types.js';
import { runCli } from '../../helpers/cli.js';
import { compiledCatalog, type CompiledCatalog } from '../../helpers/compiled-catalog.js';
import { packedRoot } from '../../helpers/packed-from-folder.js';
import { writeFixtureSnapshot } from '../../helpers/snapshot-fixture.js';
import { swiftPlan } from '../../helpers/swift.js';
import { swiftBucket, uploadRoot, type SwiftBucket } from '../../helpers/swift-source-bucket.js';

const plan = swiftPlan();
if (plan.unavailable) console.warn(`blob-source.test.ts: ${plan.unavailable}`);
const suite = plan.unavailable ? describe.skip : describe;

interface LoggedApp {
  request(path: string, init?: RequestInit): Promise<Response>;
  errors: { message: string; fields: Record<string, unknown> }[];
  close(): void;
}

/** createApp over `snapshots` on a state file of its own, with a minted key sent on every request. */
function appOver(snapshots: SnapshotSource): LoggedApp {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-s3read-state-'));
  const db: StateDb = openStateDb(join(dir, 'state.sqlite'));
  const key = createKeyStore(db).mint({ tenant: 'acme', tier: 'enterprise' }).key;
  const errors: LoggedApp['errors'] = [];
  const app = createApp({ db, config: loadConfig({}), snapshots, logger: { error: (message, fields) => errors.push({ message, fields }), info: () => undefined } });
  return {
    request: async (path, init = {}) => app.request(path, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) } }),
    errors,
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Everything a client can see of an answer, but the per-request id and the per-key rate counters. */
async function seen(res: Response) {
  const headers = [...res.headers.entries()].filter(([name]) => name !== 'x-request-id' && !name.startsWith('ratelimit'));
  let body = Buffer.from(await res.arrayBuffer()).toString('base64');
  // An error names its request, and the request ids differ; the rest of it must not.
  if (res.status >= 400) body = Buffer.from(body, 'base64').toString('utf8').replace(/"requestId":"[^"]*"/, '"requestId":"…"');
  return { status: res.status, headers: Object.fromEntries(headers), body };
}

const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 15_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

suite('packed snapshots served from S3 (Swift)', () => {
  let dir: string;
  let compiled: CompiledCatalog;
  let root: string;
  let first: string;
  let second: string;
  let bucket: SwiftBucket;
  let s3: BlobSnapshotSource;
  let s3App: LoggedApp;
  let fsApp: LoggedApp;
  const sources: BlobSnapshotSource[] = [];
  type SourceOptions = Omit<Parameters<typeof createBlobSnapshotSource>[0], 'store' | 'cacheDir'> & { cacheDir?: string };
  const source = (store: BlobStore, options: SourceOptions = {}) => {
    const made = createBlobSnapshotSource({ pollMs: 100, ...options, store, cacheDir: options.cacheDir ?? mkdtempSync(join(dir, 'cache-')) });
    sources.push(made);
    return made;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'catalog-s3read-'));
    compiled = await compiledCatalog(300);
    const a = await packedRoot(compiled.root, join(dir, 'packed'));
    // A second snapshot: one card renamed, compiled again into the same root.
    const cardsFile = join(compiled.source, 'cards.ndjson');
    const [line, ...rest] = readFileSync(cardsFile, 'utf8').split('\n');
    writeFileSync(cardsFile, [JSON.stringify({ ...JSON.parse(line), name: 'Renamed for the second snapshot' }), ...rest].join('\n'));
    const again = await runCli(['compile', '--source', compiled.source, '--out', compiled.root, '--workers', '1']);
    if (again.code !== 0) throw new Error(again.stderr);
    const b = await packedRoot(compiled.root, join(dir, 'packed'));
    root = b.root;
    first = a.id;
    second = b.id;
    expect(second).not.toBe(first);
    bucket = await swiftBucket(plan, 's3read');
    // The bucket holds the first snapshot only, its pointer on it; the second is published in a test.
    await uploadRoot(root, bucket.store('catalog/'), { skip: (k) => k.startsWith(`${second}/`) || k === CURRENT_JSON });
    await bucket.store('catalog/').put(CURRENT_JSON, Buffer.from(JSON.stringify({ snapshotId: first }) + '\n'));
    s3 = source(bucket.store('catalog/'));
    s3App = appOver(s3);
    fsApp = appOver(createFsSnapshotSource(root));
  }, 180_000);

  afterAll(async () => {
    for (const s of sources) await s.close();
    s3App?.close();
    fsApp?.close();
    await bucket?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves the snapshot current.json names, then picks up a new current.json without a restart', async () => {
    const before = await s3App.request('/v1/catalog/summary');
    expect(before.status).toBe(200);
    expect(before.headers.get('x-snapshot-id')).toBe(first);
    await uploadRoot(root, bucket.store('catalog/'), { skip: (k) => !k.startsWith(`${second}/`) && !k.startsWith(`${PACKS_DIR}/`) });
    await bucket.store('catalog/').put(CURRENT_JSON, Buffer.from(JSON.stringify({ snapshotId: second }) + '\n'));
    await until('the second snapshot', async () => (await s3App.request('/v1/catalog/summary')).headers.get('x-snapshot-id') === second);
    expect(s3.stats().localSnapshots).toContain(second);
  });

  it('answers every route with the same status, headers and bytes as the folder (cards, lists, search, bulk with Range, manifest, changes)', async () => {
    const card = compiled.cardIds[0];
    const set = compiled.sets[0];
    const word = 'Renamed';
    const pack = manifestHeader(root).packs[0].sha256 as string;
    const requests: [string, Record<string, string>?][] = [
      [`/v1/snapshot/packs/${pack}`, { range: 'bytes=10-4000' }],
      [`/v1/snapshot/packs/${'0'.repeat(64)}`],
      ['/v1/snapshot/files/objects.sqlite', { range: 'bytes=0-99' }],
      [`/v1/cards/${card}`, { 'accept-encoding': 'gzip' }],
      [`/v1/cards/${card}`],
      [`/v1/cards/${compiled.cardIds[5]}?range=12mo`, { 'accept-encoding': 'gzip' }],
      ['/v1/cards/no-such-card'],
      [`/v1/sets/${set.game}/${set.code}?limit=7&page=2`],
      [`/v1/sets/${set.game}/${set.code}`, { 'accept-encoding': 'gzip' }],
      ['/v1/trending?limit=5'],
      [`/v1/figures/${compiled.figureIds[0]}`],
      ['/v1/catalog/summary', { 'accept-encoding': 'gzip' }],
      [`/v1/search?q=${word}`],
      ['/v1/search?q=dragon&limit=3'],
      ['/v1/bulk'],
      ['/v1/bulk/cards'],
      ['/v1/bulk/cards', { range: 'bytes=100-2099' }],
      ['/v1/bulk/cards', { range: 'bytes=999999999-' }],
      ['/v1/snapshot'],
      ['/v1/snapshot/manifest'],
      ['/v1/snapshot/signature'],
      [`/v1/snapshot/manifest?snapshot=${first}`],
      [`/v1/snapshot/changes?since=${first}`],
      [`/v1/snapshot/changes?since=${first}`, { 'accept-encoding': 'gzip' }],
      [`/v1/snapshot/objects/v1/catalog/summary.json.gz?snapshot=${first}`],
      // As-of reads and the kept snapshots (issue 20): listed from the bucket without fetching the older snapshot's indexes.
      [`/v1/cards/${card}?snapshot=${first}`, { 'accept-encoding': 'gzip' }],
      [`/v1/search?q=${word}&snapshot=${first}`],
      ['/v1/snapshots'],
      ['/v1/snapshot/feed'],
    ];
    expect((await s3App.request(`/v1/snapshot/packs/${pack}`, { headers: { range: 'bytes=10-4000' } })).status).toBe(206);
    for (const [path, headers] of requests) {
      const fromFolder = await seen(await fsApp.request(path, { headers }));
      const fromS3 = await seen(await s3App.request(path, { headers }));
      expect(fromS3, path).toEqual(fromFolder);
      expect(fromS3.status, path).toBeLessThan(500);
      // Revalidation: the ETag of the folder's answer is a 304 from the bucket's too.
      const etag = fromFolder.headers.etag;
      if (fromFolder.status === 200 && etag) {
        const revalidated = await s3App.request(path, { headers: { ...headers, 'if-none-match': etag } });
        expect(revalidated.status, `${path} If-None-Match`).toBe(304);
      }
    }
    // A pinned snapshot that was never published is gone on both.
    expect((await s3App.request('/v1/snapshot/manifest?snapshot=20200101T000000Z-00000000')).status).toBe(410);
    expect(s3App.errors).toEqual([]);
  });

  it('reads each object with one ranged GET for exactly its bytes; concurrent reads of one object share it, and the cache stays within its budget', async () => {
    const budget = 32 * 1024;
    const bounded = source(bucket.store('catalog/'), { objectCacheBytes: budget });
    const reader = (await bounded.current())!;
    const keys: string[] = [];
    for await (const e of reader.entries()) keys.push(e.key);
    expect(keys.length).toBeGreaterThan(1000);
    const same = await Promise.all(Array.from({ length: 10 }, () => reader.get(keys[0])));
    expect(bounded.stats().objectGets).toBe(1);
    expect(same.every((b) => b!.equals(same[0]!))).toBe(true);
    let total = 0;
    let peak = 0;
    for (const key of keys.slice(0, 300)) {
      total += (await reader.get(key))!.length;
      peak = Math.max(peak, bounded.stats().objectCacheBytes);
    }
    // Many times the budget went through the cache; it never held more than the budget.
    expect(total).toBeGreaterThan(4 * budget);
    expect(peak).toBeLessThanOrEqual(budget);
    expect(bounded.stats().objectCacheBytes).toBeGreaterThan(budget / 2);
  });

  it('answers 500 (logged as corrupt_object) when a pack is missing, and keeps serving', async () => {
    const prefix = 'nopacks/';
    await uploadRoot(root, bucket.store(prefix), { skip: (k) => k.startsWith(`${PACKS_DIR}/`) });
    const app = appOver(source(bucket.store(prefix)));
    try {
      const res = await app.request(`/v1/cards/${compiled.cardIds[1]}`);
      expect(res.status).toBe(500);
      expect((await res.json()).error).toBe('internal');
      expect(app.errors.map((e) => e.fields.code)).toEqual(['corrupt_object']);
      // Files that are not in packs are still served: the process did not fall over.
      expect((await app.request('/v1/snapshot/manifest')).status).toBe(200);
    } finally {
      app.close();
    }
  });

  it('is not ready while the store cannot be read, and says why in the log, not to partners', async () => {
    expect((await s3App.request('/readyz')).status).toBe(200);
    const unreachable = createS3BlobStore({ bucket: bucket.name, prefix: 'catalog/', env: { ...bucket.env, AWS_ENDPOINT_URL: 'http://127.0.0.1:9', AWS_MAX_ATTEMPTS: '1' } });
    const down = source(unreachable);
    const app = appOver(down);
    try {
      expect((await app.request('/readyz')).status).toBe(503);
      expect(app.errors[0]?.fields).toMatchObject({ reason: 'snapshots_unreadable' });
      expect(String(app.errors[0]?.fields.detail)).toMatch(/cannot reach the S3 endpoint/);
      // A partner gets a 503 that names neither the endpoint nor the bucket; the log has both.
      const res = await app.request('/v1/catalog/summary');
      expect(res.status).toBe(503);
      const body = await res.text();
      expect(JSON.parse(body)).toMatchObject({ error: 'unavailable', message: 'the snapshot store cannot be read right now; try again later' });
      expect(body).not.toContain(bucket.name);
      expect(app.errors.at(-1)).toMatchObject({ message: 'snapshot data unavailable', fields: { cause: expect.stringMatching(/127\.0\.0\.1:9/) } });
      // Requests while it is down do not each send a GET to it.
      const reads = down.stats().pointerReads;
      await Promise.all(Array.from({ length: 20 }, () => app.request('/v1/catalog/summary')));
      expect(down.stats().pointerReads - reads).toBeLessThanOrEqual(1);
    } finally {
      app.close();
    }
  });

  it('streams a bulk file a chunk at a time, fetching only what the reader takes', async () => {
    const ranges: number[] = [];
    const inner = bucket.store('catalog/');
    const counting: BlobStore = { ...inner, location: inner.location, getRange: (key, offset, length) => (ranges.push(length), inner.getRange(key, offset, length)) };
    const reader = (await source(counting, { streamChunkBytes: 4096 }).current())!;
    const file = (await reader.file('bulk/cards.ndjson.gz'))!;
    expect(file.size).toBeGreaterThan(5 * 4096);
    ranges.length = 0; // the copies of the index and search files
    const whole: Buffer[] = [];
    for await (const chunk of file.stream(0, file.size - 1)) whole.push(chunk as Buffer);
    expect(Buffer.concat(whole).equals(readFileSync(join(root, reader.id, 'bulk/cards.ndjson.gz')))).toBe(true);
    expect(Math.max(...ranges)).toBe(4096);
    expect(ranges.length).toBe(Math.ceil(file.size / 4096));
    // A client that stops after the first chunk costs a GET or two, not the file.
    ranges.length = 0;
    const partial = file.stream(0, file.size - 1);
    for await (const chunk of partial) {
      expect((chunk as Buffer).length).toBe(4096);
      break;
    }
    expect(ranges.length).toBeLessThanOrEqual(2);
  });

  it('copies a snapshot\'s files into the cache folder only when they match the manifest, and removes them once unused for the grace period', async () => {
    // An object index that is not the one the manifest names: refused, nothing left behind.
    await uploadRoot(root, bucket.store('badindex/'), { skip: (k) => k === `${second}/${OBJECT_INDEX_FILE}` || k.startsWith(`${PACKS_DIR}/`) });
    const size = readFileSync(join(root, second, OBJECT_INDEX_FILE)).length;
    await bucket.store('badindex/').put(`${second}/${OBJECT_INDEX_FILE}`, Buffer.alloc(size, 1));
    const badCache = mkdtempSync(join(dir, 'cache-'));
    const err = await source(bucket.store('badindex/'), { cacheDir: badCache }).current().then(() => null, (e: unknown) => e);
    expect(err).toMatchObject({ code: 'corrupt_object', message: expect.stringMatching(/objects\.sqlite: its SHA-256 is [0-9a-f]{64}, not the/) });
    expect(readdirSync(join(badCache, second))).toEqual([]);

    // Two snapshots in use, then only the current one: the other's folder goes after the grace period.
    let clock = 1_000_000;
    const cacheDir = mkdtempSync(join(dir, 'cache-'));
    const timed = source(bucket.store('catalog/'), { cacheDir, graceMs: 60_000, pollMs: 1_000, now: () => clock });
    expect((await timed.current())!.id).toBe(second);
    expect(await timed.open(first)).not.toBeNull();
    expect(readdirSync(cacheDir).sort()).toEqual([first, second].sort());
    clock += 30_000;
    await timed.current();
    expect(timed.stats().localSnapshots.sort()).toEqual([first, second].sort());
    clock += 31_000;
    await timed.current();
    expect(timed.stats().localSnapshots).toEqual([second]);
    await until('the folder of the unused snapshot to go', async () => !existsSync(join(cacheDir, first)));
    expect(existsSync(join(cacheDir, second, OBJECT_INDEX_FILE))).toBe(true);
    // Opened again, it is copied again.
    expect(await (await timed.open(first))!.get('v1/catalog/summary.json.gz')).not.toBeNull();
  });

  it('refuses a version-1 snapshot with a message that says what to do', async () => {
    const v1 = await writeFixtureSnapshot(join(dir, 'v1'));
    await uploadRoot(v1.root, bucket.store('v1/'));
    const err = await source(bucket.store('v1/')).current().then(() => null, (e: unknown) => e);
    expect(isCatalogError(err)).toBe(true);
    expect((err as Error).message).toMatch(/version-1 layout .* served from a folder only.*compile again/);
  });
});

describe('the object store source over a folder BlobStore', () => {
  it('refuses ids that are not snapshot ids and snapshots without a manifest, before touching a path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-s3read-folder-'));
    try {
      const store = createFolderBlobStore(join(dir, 'root'));
      const s = createBlobSnapshotSource({ store, cacheDir: join(dir, 'cache') });
      expect(await s.current()).toBeNull();
      expect(await s.open('../../etc')).toBeNull();
      expect(await s.open('20261122T020000Z-1a2b3c4d')).toBeNull();
      await s.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
