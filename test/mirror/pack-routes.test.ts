/**
 * The routes a mirror of a packed snapshot downloads from, through the real app (`app.request`, real
 * SQLite state, a minted key) over two packed snapshots built from real compiles: a pack by its
 * SHA-256 and a snapshot file by name, only what the pinned manifest lists, with the ETag the
 * manifest gives, Range/If-Range/416 like the bulk files, 400 for malformed names, 404 on a snapshot
 * that is not packed, and 401 without a key.
 */
import { mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../snapshots/codec.js';
import { createFsSnapshotSource } from '../../snapshots/store/fs.js';
import { isSnapshotId, switchCurrent } from '../../snapshots/store/pointer.js';
import type { ManifestHeader } from '../../snapshots/manifest.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { createTestApp, type TestApp } from '../helpers/server-app.js';

let dir: string;
let packed: string;
let first: string;
let second: string;
let app: TestApp;
let filesApp: TestApp;

const get = (path: string, headers: Record<string, string> = {}, on = app) => on.request(path, { headers: { ...on.headers, ...headers } });
const headerOf = (id: string): ManifestHeader => JSON.parse(readFileSync(join(packed, id, 'manifest.ndjson'), 'utf8').split('\n')[0]);

beforeAll(async () => {
  dir = tempDir('catalog-pack-routes-');
  packed = join(dir, 'packed');
  const catalog = join(dir, 'catalog');
  const compile = ['compile', '--source', catalog, '--out', packed, '--workers', '0'];
  for (const args of [['generate', '--out', catalog, '--cards', '60', '--seed', '3'], compile]) {
    const r = await runCli(args);
    expect(r.code, r.stderr).toBe(0);
  }
  const cardsPath = join(catalog, 'cards.ndjson');
  const lines = readFileSync(cardsPath, 'utf8').trim().split('\n');
  const card = JSON.parse(lines[0]);
  card.rarity = 'mythic';
  lines[0] = JSON.stringify(card);
  writeFileSync(cardsPath, lines.join('\n') + '\n');
  const r = await runCli(compile);
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(readFileSync(join(packed, 'current', 'manifest.ndjson'), 'utf8').split('\n')[0]).version).toBe(2);
  [first, second] = readdirSync(packed).filter(isSnapshotId).sort();
  expect(readlinkSync(join(packed, 'current'))).toBe(second);
  app = await createTestApp({ snapshots: createFsSnapshotSource(packed) });
  filesApp = await createTestApp({ snapshots: createFsSnapshotSource(await perUrlRoot(dir)) });
}, 120_000);

/** A per-URL snapshot (manifest version 1): one object file and its manifest line, enough for a route to tell the layouts apart. */
async function perUrlRoot(under: string): Promise<string> {
  const root = join(under, 'per-url');
  const id = '20260101T000000Z-00000000';
  const bytes = readFileSync(join(packed, 'current', 'manifest.ndjson'));
  mkdirSync(join(root, id, 'v1', 'catalog'), { recursive: true });
  writeFileSync(join(root, id, 'v1', 'catalog', 'summary.json.gz'), bytes);
  const header = { format: 'catalog-manifest', version: 1, snapshotId: id, asOf: null, objects: 1, previous: null, counts: { new: 1, changed: 0, unchanged: 0, removed: 0 } };
  writeFileSync(join(root, id, 'manifest.ndjson'), `${JSON.stringify(header)}\n${JSON.stringify({ key: 'v1/catalog/summary.json.gz', size: bytes.length, sha256: sha256Hex(bytes), input: null })}\n`);
  await switchCurrent(root, id);
  return root;
}

afterAll(() => {
  app?.close();
  filesApp?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('GET /v1/snapshot/packs/{sha256}', () => {
  it('when a listed pack is asked then its bytes come back with its SHA-256 as ETag, resumable with Range', async () => {
    const pack = headerOf(second).packs![0];
    const res = await get(`/v1/snapshot/packs/${pack.sha256}?snapshot=${second}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('etag')).toBe(`"${pack.sha256}"`);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('x-snapshot-id')).toBe(second);
    const whole = Buffer.from(await res.arrayBuffer());
    expect(whole.length).toBe(pack.size);
    expect(sha256Hex(whole)).toBe(pack.sha256);
    const part = await get(`/v1/snapshot/packs/${pack.sha256}`, { Range: 'bytes=10-', 'If-Range': `"${pack.sha256}"` });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-${pack.size - 1}/${pack.size}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(whole.subarray(10))).toBe(true);
    expect((await get(`/v1/snapshot/packs/${pack.sha256}`, { Range: 'bytes=10-', 'If-Range': '"other"' })).status).toBe(200);
    expect((await get(`/v1/snapshot/packs/${pack.sha256}`, { Range: `bytes=${pack.size}-` })).status).toBe(416);
    expect((await get(`/v1/snapshot/packs/${pack.sha256}`, { 'If-None-Match': `"${pack.sha256}"` })).status).toBe(304);
  });

  it('when the pack is not listed by the pinned snapshot then 404; a malformed hash is 400; no key is 401', async () => {
    const older = new Set(headerOf(first).packs!.map((p) => p.sha256));
    const onlyNewer = headerOf(second).packs!.find((p) => !older.has(p.sha256))!;
    expect(onlyNewer).toBeDefined();
    const notListed = await get(`/v1/snapshot/packs/${onlyNewer.sha256}?snapshot=${first}`);
    expect(notListed.status).toBe(404);
    expect((await notListed.json()).message).toContain('lists no pack');
    expect((await get(`/v1/snapshot/packs/${'0'.repeat(64)}`)).status).toBe(404);
    for (const bad of ['ABC', onlyNewer.sha256.toUpperCase(), `${onlyNewer.sha256}0`, '..%2f..%2fetc']) {
      expect((await get(`/v1/snapshot/packs/${bad}`)).status, bad).toBe(400);
    }
    expect((await app.request(`/v1/snapshot/packs/${onlyNewer.sha256}`)).status).toBe(401);
  });

  it('when the snapshot is not packed then 404 saying to mirror by object', async () => {
    const res = await get(`/v1/snapshot/packs/${'0'.repeat(64)}`, {}, filesApp);
    expect(res.status).toBe(404);
    expect((await res.json()).message).toContain('is not packed');
    expect((await get('/v1/snapshot/files/objects.sqlite', {}, filesApp)).status).toBe(404);
  });
});

describe('GET /v1/snapshot/files/{name}', () => {
  it('when a listed file is asked then its bytes come back with the manifest\'s SHA-256 as ETag', async () => {
    const listed = headerOf(second).files!;
    expect(listed.map((f) => f.name).sort()).toEqual(['changes.ndjson', 'objects.sqlite', 'search.sqlite']);
    for (const f of listed) {
      const res = await get(`/v1/snapshot/files/${f.name}?snapshot=${second}`);
      expect(res.status, f.name).toBe(200);
      expect(res.headers.get('etag')).toBe(`"${f.sha256}"`);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(sha256Hex(bytes)).toBe(f.sha256);
      expect(bytes.equals(readFileSync(join(packed, second, f.name)))).toBe(true);
    }
    expect((await get('/v1/snapshot/files/objects.sqlite')).headers.get('content-type')).toBe('application/octet-stream');
    const part = await get('/v1/snapshot/files/objects.sqlite', { Range: 'bytes=0-15' });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).toString('latin1')).toBe('SQLite format 3\u0000');
  });

  it('when the name is not listed then 404; when it is not a plain file name then 400', async () => {
    expect((await get('/v1/snapshot/files/manifest.ndjson')).status).toBe(404);
    expect((await get('/v1/snapshot/files/nope.sqlite')).status).toBe(404);
    // `%2e%2e` is `..` to the URL parser: the path becomes /v1/snapshot/, which no route answers.
    expect((await get('/v1/snapshot/files/%2e%2e')).status).toBe(404);
    for (const bad of ['.hidden', 'a..b', 'bulk%2fcards.ndjson.gz', `${'a'.repeat(65)}`]) {
      expect((await get(`/v1/snapshot/files/${bad}`)).status, bad).toBe(400);
    }
  });
});
