/**
 * The snapshot and bulk routes through the real app (`app.request`, real SQLite state, a minted key)
 * over two snapshots compiled and signed by the real CLI: metadata, the signed manifest, changes
 * since a kept snapshot (and 410 for one that is not kept), the public key, raw objects by manifest
 * key, bulk files with Range/If-Range/416, and one audit row per request.
 */
import { readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../proxy/app.js';
import { loadConfig } from '../../proxy/config.js';
import { createKeyStore } from '../../proxy/keys/store.js';
import { openStateDb, type StateDb } from '../../proxy/state/open.js';
import { sha256Hex } from '../../snapshots/codec.js';
import { loadPublicKey } from '../../snapshots/signature.js';
import { createFsSnapshotSource } from '../../snapshots/store/fs.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { manifestEntries, readDoc } from '../helpers/snapshot-files.js';

let dir: string;
let root: string;
let first: string;
let second: string;
let state: StateDb;
let app: ReturnType<typeof createApp>;
let auth: Record<string, string>;

const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers: { ...auth, ...headers } });

beforeAll(async () => {
  dir = tempDir('catalog-snapshot-routes-');
  root = join(dir, 'snapshots');
  const catalog = join(dir, 'catalog');
  const compile = ['compile', '--source', catalog, '--out', root, '--sign-key', join(dir, 'keys', 'signing-key.pem'), '--workers', '0'];
  for (const args of [['generate', '--out', catalog, '--cards', '120', '--seed', '9'], ['signing', 'init', '--out', join(dir, 'keys')], compile]) {
    const r = await runCli(args);
    expect(r.code, r.stderr).toBe(0);
  }
  first = readlinkSync(join(root, 'current'));
  const cardsPath = join(catalog, 'cards.ndjson');
  const lines = readFileSync(cardsPath, 'utf8').trim().split('\n');
  const card = JSON.parse(lines[0]);
  card.rarity = 'mythic';
  lines[0] = JSON.stringify(card);
  writeFileSync(cardsPath, lines.join('\n') + '\n');
  const r = await runCli(compile);
  expect(r.code, r.stderr).toBe(0);
  second = readlinkSync(join(root, 'current'));
  state = openStateDb(join(dir, 'state.sqlite'));
  const minted = createKeyStore(state).mint({ tenant: 'acme', tier: 'enterprise' });
  auth = { Authorization: `Bearer ${minted.key}` };
  app = createApp({
    db: state, config: loadConfig({}), snapshots: createFsSnapshotSource(root),
    publicKey: loadPublicKey(join(dir, 'keys', 'signing-key.pub.pem')), logger: { error: () => undefined, info: () => undefined },
  });
}, 120_000);

afterAll(() => {
  state?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('GET /v1/snapshot', () => {
  it('when called then it names the current snapshot, its previous one, counts, the key fingerprint and the bulk files', async () => {
    const res = await get('/v1/snapshot');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-snapshot-id')).toBe(second);
    const body = await res.json();
    expect(body.kind).toBe('snapshot');
    expect(body.data.snapshotId).toBe(second);
    expect(body.data.previous).toBe(first);
    expect(body.data.counts.cards).toBe(120);
    expect(body.data.manifest.signed).toBe(true);
    expect(body.data.manifest.sha256).toBe(sha256Hex(readFileSync(join(root, second, 'manifest.ndjson'))));
    expect(body.data.publicKeyFingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(body.data.bulk.map((b: { name: string }) => b.name)).toEqual(['cards', 'figures', 'oracle', 'sets', 'changes']);
    const again = await get('/v1/snapshot', { 'If-None-Match': res.headers.get('etag')! });
    expect(again.status).toBe(304);
  });

  it('when no key is sent then 401 like every partner route', async () => {
    expect((await app.request('/v1/snapshot')).status).toBe(401);
    expect((await app.request('/v1/bulk/cards')).status).toBe(401);
  });
});

describe('GET /v1/snapshot/manifest and /signature', () => {
  it('when called then the exact signed bytes come back, and a pinned older snapshot too', async () => {
    const res = await get('/v1/snapshot/manifest');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.equals(readFileSync(join(root, second, 'manifest.ndjson')))).toBe(true);
    expect(res.headers.get('etag')).toBe(`"${sha256Hex(bytes)}"`);
    const sig = await get('/v1/snapshot/signature');
    expect(JSON.parse(await sig.text()).sha256).toBe(sha256Hex(bytes));
    const old = await get(`/v1/snapshot/manifest?snapshot=${first}`);
    expect(old.headers.get('x-snapshot-id')).toBe(first);
    expect(Buffer.from(await old.arrayBuffer()).equals(readFileSync(join(root, first, 'manifest.ndjson')))).toBe(true);
  });

  it('when the pinned snapshot is not kept then 410 gone, and a malformed id is 400', async () => {
    const gone = await get('/v1/snapshot/manifest?snapshot=20200101T000000Z-00000000');
    expect(gone.status).toBe(410);
    expect((await gone.json()).error).toBe('gone');
    const bad = await get('/v1/snapshot/manifest?snapshot=../../etc');
    expect(bad.status).toBe(400);
  });
});

describe('GET /v1/snapshot/changes', () => {
  it('when since is the previous snapshot then it lists the changed keys with their new hashes', async () => {
    const res = await get(`/v1/snapshot/changes?since=${first}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.kind).toBe('snapshotChanges');
    const expected = readFileSync(join(root, second, 'changes.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(body.data.changes.map((c: { key: string; change: string }) => ({ key: c.key, change: c.change }))).toEqual(expected);
    expect(body.data.counts.changed).toBe(expected.filter((c) => c.change === 'changed').length);
    expect(body.data.counts.changed).toBeGreaterThan(0);
  });

  it('when the client accepts gzip then the list is gzipped as it streams, with its own ETag, Vary and a 304 per coding (partner document part 2)', async () => {
    const path = `/v1/snapshot/changes?since=${first}`;
    const plain = await get(path);
    const plainText = await plain.text();
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    const zipped = await get(path, { 'Accept-Encoding': 'gzip' });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toBe('Accept-Encoding');
    expect(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString('utf8')).toBe(plainText);
    const gzipTag = zipped.headers.get('etag')!;
    expect(gzipTag).not.toBe(plain.headers.get('etag'));
    expect((await get(path, { 'Accept-Encoding': 'gzip', 'If-None-Match': gzipTag })).status).toBe(304);
    expect((await get(path, { 'If-None-Match': gzipTag })).status).toBe(200);
  });

  it('when since is the current snapshot then nothing changed; when it is not kept then 410; when missing then 400', async () => {
    expect((await (await get(`/v1/snapshot/changes?since=${second}`)).json()).data.changes).toEqual([]);
    const gone = await get('/v1/snapshot/changes?since=20200101T000000Z-00000000');
    expect(gone.status).toBe(410);
    expect((await gone.json()).message).toContain('no longer kept');
    expect((await get('/v1/snapshot/changes')).status).toBe(400);
  });
});

describe('GET /v1/snapshot/public-key and /objects', () => {
  it('when a key is configured then its PEM and fingerprint are published', async () => {
    const res = await get('/v1/snapshot/public-key');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(readFileSync(join(dir, 'keys', 'signing-key.pub.pem'), 'utf8'));
    expect(res.headers.get('x-key-fingerprint')).toMatch(/^sha256:/);
  });

  it('when an object is asked by manifest key then its stored bytes come back; a bad key is 400', async () => {
    const entry = manifestEntries(root, second)[0];
    const res = await get(`/v1/snapshot/objects/${entry.key}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(sha256Hex(bytes)).toBe(entry.sha256);
    expect((await get('/v1/snapshot/objects/v1/%2e%2e/secret.json.gz')).status).toBe(400);
    expect((await get('/v1/snapshot/objects/v1/cards/nope/30d.json.gz')).status).toBe(404);
  });
});

describe('GET /v1/bulk and /v1/bulk/:name', () => {
  it('when the cards file is downloaded then it has one 30d data line per card', async () => {
    const list = await (await get('/v1/bulk')).json();
    const cards = list.data.files.find((f: { name: string }) => f.name === 'cards');
    const res = await get('/v1/bulk/cards');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(cards.size));
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(sha256Hex(bytes)).toBe(cards.sha256);
    const lines = gunzipSync(bytes).toString('utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.length).toBe(120);
    const stored = readDoc(root, `v1/cards/${lines[0].id}/30d.json.gz`, second);
    expect(lines[0]).toEqual(stored.data);
  });

  it('when a Range is asked then 206 with the rest; a stale If-Range gets the whole file; past the end is 416', async () => {
    const whole = Buffer.from(await (await get('/v1/bulk/cards')).arrayBuffer());
    const etag = `"${sha256Hex(whole)}"`;
    const part = await get('/v1/bulk/cards', { Range: 'bytes=100-', 'If-Range': etag });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-${whole.length - 1}/${whole.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(whole.subarray(100))).toBe(true);
    const stale = await get('/v1/bulk/cards', { Range: 'bytes=100-', 'If-Range': '"0000"' });
    expect(stale.status).toBe(200);
    const past = await get('/v1/bulk/cards', { Range: `bytes=${whole.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${whole.length}`);
    expect((await past.json()).error).toBe('range_not_satisfiable');
    expect((await get('/v1/bulk/nope')).status).toBe(404);
  });

  it('when bulk and snapshot routes answer then each request has its audit row with the route pattern', async () => {
    const before = state.sqlite.prepare("SELECT count(*) AS n FROM audit_log WHERE route = '/v1/bulk/:name'").get() as { n: number };
    await get('/v1/bulk/sets');
    await get('/v1/bulk/sets', { Range: 'bytes=0-9' });
    const after = state.sqlite.prepare("SELECT count(*) AS n FROM audit_log WHERE route = '/v1/bulk/:name'").get() as { n: number };
    expect(after.n - before.n).toBe(2);
  });
});
