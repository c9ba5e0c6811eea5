/**
 * End to end, per-URL origin (manifest version 1): what every compile wrote before issue 17, and what
 * an origin serves until its next compile. A generated catalog compiled and signed by the real CLI is
 * unpacked into per-URL files with signed version-1 manifests (test/helpers/unpacked-fixture.ts),
 * served by `catalog serve --public-key` on a free port, mirrored by `catalog mirror` through a relay
 * that cuts the first bulk download in half (so the mirror must resume it with Range). Then 1% of the
 * cards change, the origin recompiles, and the re-mirror must refuse a tampered manifest, then fetch
 * exactly the objects whose hash changed (counted in the origin's audit rows), link the rest, and end
 * with the origin's bytes. Last, the origin's own next compile is packed, and the mirror moves to packs
 * with its per-URL files (--layout files) linked from the per-URL snapshot it held. The cases that do not depend on the origin's layout (wrong keys, a folder
 * that is not a mirror) are in packed-mirror.e2e.test.ts.
 */
import { chmodSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { type ServerProcess } from '../helpers/server-process.js';
import { expectNginxLikeOrigin, startMirrorOrigin } from '../helpers/mirror-origin.js';
import { nginxMissing, startNginx } from '../helpers/nginx.js';
import { sendHalfThenBreak, startRelay, type Relay } from '../helpers/relay.js';
import { request } from 'undici';
import { loadPrivateKey } from '../../snapshots/signature.js';
import { unpackRoot } from '../helpers/unpacked-fixture.js';
import { indexEntries } from '../helpers/snapshot-files.js';

let dir: string;
let origin: string;
let catalog: string;
let compiled: string;
let server: ServerProcess | null = null;
let relay: Relay | null = null;
let relayUrl: string;
const relayLog: { path: string; range: string | undefined }[] = [];
let cutNextBulk = true;

const keys = () => join(dir, 'keys');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const pub = () => join(keys(), 'signing-key.pub.pem');
const mirrorDir = () => join(dir, 'mirror');
const currentOf = (root: string) => readlinkSync(join(root, 'current'));

interface Entry { key: string; size: number; sha256: string }
function manifestOf(root: string): { header: { snapshotId: string; bulk: { file: string; sha256: string }[] }; entries: Entry[] } {
  const lines = readFileSync(join(root, currentOf(root), 'manifest.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  return { header: lines[0], entries: lines.slice(1) };
}

function auditCount(route: string): number {
  const db = new Database(join(dir, 'state.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM audit_log WHERE route = ?').get(route) as { n: number }).n;
  } finally {
    db.close();
  }
}

async function waitForAudit(route: string, atLeast: number): Promise<number> {
  // Audit rows are group-committed before each response leaves, so they are there; this only
  // tolerates the WAL reader seeing the last commit.
  for (let i = 0; i < 50; i++) {
    const n = auditCount(route);
    if (n >= atLeast) return n;
    await new Promise((r) => setTimeout(r, 20));
  }
  return auditCount(route);
}

/** Every file the manifest names (objects, bulk files, the manifest and its signature) is byte-identical in both roots. */
function expectSameBytes(originRoot: string, mirrorRoot: string): void {
  const { header, entries } = manifestOf(originRoot);
  const o = join(originRoot, currentOf(originRoot));
  const m = join(mirrorRoot, currentOf(mirrorRoot));
  expect(currentOf(mirrorRoot)).toBe(currentOf(originRoot));
  const files = [...entries.map((e) => e.key), ...header.bulk.map((b) => b.file), 'manifest.ndjson', 'manifest.ndjson.sig'];
  const different = files.filter((f) => !readFileSync(join(o, f)).equals(readFileSync(join(m, f))));
  expect(different).toEqual([]);
}

/** Compiles the catalog (packed, as compile writes now) and unpacks the new snapshot into the per-URL origin. */
async function compileOrigin(): Promise<void> {
  const r = await runCli(['compile', '--source', catalog, '--out', compiled, '--sign-key', join(keys(), 'signing-key.pem'), '--workers', '1']);
  expect(r.code, r.stderr).toBe(0);
  await unpackRoot(compiled, origin, loadPrivateKey(join(keys(), 'signing-key.pem')));
}

function mirror(args: { to?: string; publicKey?: string; from?: string } = {}) {
  return runCli(['mirror', '--from', args.from ?? relayUrl, '--key', `@${join(dir, 'key.txt')}`, '--to', args.to ?? mirrorDir(),
    '--public-key', args.publicKey ?? pub(), '--concurrency', '4']);
}

beforeAll(async () => {
  dir = tempDir('catalog-mirror-e2e-');
  catalog = join(dir, 'catalog');
  compiled = join(dir, 'compiled');
  origin = join(dir, 'origin');
  for (const args of [['generate', '--out', catalog, '--cards', '400', '--seed', '5'], ['signing', 'init', '--out', keys()]]) {
    const r = await runCli(args);
    expect(r.code, r.stderr).toBe(0);
  }
  await compileOrigin();
  expect(JSON.parse(readFileSync(join(origin, 'current', 'manifest.ndjson'), 'utf8').split('\n')[0]).version).toBe(1);
  server = await startMirrorOrigin(dir, origin, pub());
  relay = await startRelay(server.url, {
    before(req) {
      relayLog.push({ path: req.url ?? '', range: req.headers.range });
      return false;
    },
    after(req, upRes, res) {
      if (!(cutNextBulk && (req.url ?? '').startsWith('/v1/bulk/cards') && upRes.statusCode === 200)) return false;
      cutNextBulk = false;
      sendHalfThenBreak(upRes, res);
      return true;
    },
  });
  relayUrl = relay.url;
}, 120_000);

afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  await relay?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('catalog mirror', () => {
  it('when the mirror runs the first time then it holds the origin\'s exact bytes, after resuming a cut bulk download', async () => {
    const r = await mirror();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^mirrored \S+: \d+ objects \(\d+ fetched/);
    expectSameBytes(origin, mirrorDir());
    // The cut download was resumed from where it broke, with If-Range naming the signed hash.
    const cards = relayLog.filter((l) => l.path.startsWith('/v1/bulk/cards'));
    expect(cards.length).toBe(2);
    expect(cards[1].range).toMatch(/^bytes=[1-9]\d*-$/);
    // The folder is a complete snapshot: the offline verify agrees, signature included.
    const v = await runCli(['verify', mirrorDir(), '--public-key', pub()]);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toContain('manifest signature valid');
    // And nginx can label every object with the origin's ETag.
    const map = readFileSync(join(mirrorDir(), 'current', 'etags.map'), 'utf8');
    const { entries } = manifestOf(origin);
    const card = entries.find((e) => e.key.endsWith('/30d.json.gz'))!;
    expect(map).toContain(`"${currentOf(origin)}:/${card.key.slice(0, -3)}" "\\"${card.sha256}\\"";`);
  }, 180_000);

  it('when run again on the same snapshot then nothing is fetched', async () => {
    const before = await waitForAudit('/v1/snapshot/objects/*', 0);
    const r = await mirror();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('is up to date');
    expect(await waitForAudit('/v1/snapshot/objects/*', 0)).toBe(before);
  }, 60_000);

  it('when 1% of the catalog changes then the re-mirror fetches only the changed objects, after refusing a tampered manifest', async () => {
    const previousMirror = currentOf(mirrorDir());
    const before = manifestOf(origin);
    // Change the image of 1% of the cards (every 100th), then recompile incrementally.
    const cardsPath = join(catalog, 'cards.ndjson');
    const lines = readFileSync(cardsPath, 'utf8').trim().split('\n');
    const changedCards = lines.length / 100;
    writeFileSync(cardsPath, lines.map((l, i) => {
      if (i % 100 !== 0) return l;
      const card = JSON.parse(l);
      card.imageUrl = `${card.imageUrl ?? 'https://images.example.invalid/card.jpg'}?v=2`;
      return JSON.stringify(card);
    }).join('\n') + '\n');
    await compileOrigin();
    const after = manifestOf(origin);
    const beforeSha = new Map(before.entries.map((e) => [e.key, e.sha256]));
    const moved = after.entries.filter((e) => beforeSha.get(e.key) !== e.sha256);
    expect(moved.length).toBeGreaterThanOrEqual(changedCards * 5);
    expect(moved.length).toBeLessThan(after.entries.length / 10);

    // A manifest altered at the origin after signing is refused; the mirror stays on its snapshot.
    const manifestPath = join(origin, currentOf(origin), 'manifest.ndjson');
    const genuine = readFileSync(manifestPath);
    writeFileSync(manifestPath, Buffer.concat([genuine, Buffer.from(JSON.stringify({ key: 'v1/cards/x/30d.json.gz', size: 1, sha256: '0'.repeat(64), input: null }) + '\n')]));
    const tampered = await mirror();
    expect(tampered.code).toBe(65);
    expect(tampered.stderr).toContain('changed after signing');
    expect(currentOf(mirrorDir())).toBe(previousMirror);
    writeFileSync(manifestPath, genuine);

    const objectRequests = await waitForAudit('/v1/snapshot/objects/*', 0);
    const r = await mirror();
    expect(r.code, r.stderr).toBe(0);
    // Exactly the objects whose hash changed crossed the wire (the origin audited each request).
    expect(await waitForAudit('/v1/snapshot/objects/*', objectRequests + moved.length)).toBe(objectRequests + moved.length);
    expect(r.stdout).toContain(`(${moved.length} fetched`);
    expectSameBytes(origin, mirrorDir());
    // Unchanged objects are the previous mirror's files (hard links), not copies.
    const unchanged = after.entries.find((e) => beforeSha.get(e.key) === e.sha256)!;
    const now = join(mirrorDir(), currentOf(mirrorDir()), unchanged.key);
    const then = join(mirrorDir(), previousMirror, unchanged.key);
    expect(statSync(now).ino).toBe(statSync(then).ino);
  }, 240_000);

  it('when nginx serves the mirror with docs/mirroring/nginx.conf then bytes, ETag, Cache-Control and 304s equal the origin\'s', async (ctx) => {
    // nginx's workers run as an unprivileged user: the temp folder (mkdtemp makes it 0700) must be traversable.
    chmodSync(dir, 0o755);
    const nginx = await startNginx(mirrorDir(), join(dir, 'nginx'));
    if (nginx === null) return nginxMissing(ctx, 'the nginx mirror check');
    try {
      const { entries } = manifestOf(origin);
      const card = entries.find((e) => e.key.startsWith('v1/cards/') && e.key.endsWith('/3mo.json.gz'))!.key.split('/')[2];
      const figure = entries.find((e) => /^v1\/figures\/[^/]+\.json\.gz$/.test(e.key))!.key.slice('v1/figures/'.length, -'.json.gz'.length);
      const set = entries.find((e) => /^v1\/sets\/[^/]+\/[^/]+\/page-1\.json\.gz$/.test(e.key))!.key.split('/');
      const paths = [`/v1/cards/${card}?range=3mo`, `/v1/cards/${card}`, `/v1/figures/${figure}`, `/v1/sets/${set[2]}/${set[3]}`,
        '/v1/catalog/summary', '/v1/bulk/cards', '/v1/snapshot/manifest'];
      await expectNginxLikeOrigin(dir, server!.url, nginx.url, paths);
      // A document's Content-Type matches too, and a bulk download resumes at nginx like at the origin.
      const doc = await request(`${nginx.url}/v1/catalog/summary`, { headers: { 'accept-encoding': 'gzip' } });
      await doc.body.dump();
      expect(doc.headers['content-type']).toBe('application/json; charset=utf-8');
      const whole = readFileSync(join(mirrorDir(), 'current', 'bulk', 'cards.ndjson.gz'));
      const part = await request(`${nginx.url}/v1/bulk/cards`, { headers: { range: 'bytes=100-', 'if-range': `"${sha256(whole)}"` } });
      expect(part.statusCode).toBe(206);
      expect(Buffer.from(await part.body.arrayBuffer()).equals(whole.subarray(100))).toBe(true);
    } finally {
      await nginx.stop();
    }
  }, 60_000);

  it('when the origin\'s next compile is packed then the mirror switches to packs, and --layout files links every unchanged per-URL file', async () => {
    const previous = currentOf(mirrorDir());
    const before = new Map(manifestOf(origin).entries.map((e) => [e.key, e.sha256]));
    // The upgraded origin compiles into its own root: the per-URL previous snapshot is packed once.
    const c = await runCli(['compile', '--source', catalog, '--out', origin, '--sign-key', join(keys(), 'signing-key.pem'), '--workers', '1']);
    expect(c.code, c.stderr).toBe(0);
    const header = JSON.parse(readFileSync(join(origin, 'current', 'manifest.ndjson'), 'utf8').split('\n')[0]);
    expect(header.version).toBe(2);
    // Nothing changed in the catalog: the change list is an empty file, which is mirrored like any other.
    expect(header.files.find((f: { name: string }) => f.name === 'changes.ndjson').size).toBe(0);
    const r = await runCli(['mirror', '--from', relayUrl, '--key', `@${join(dir, 'key.txt')}`, '--to', mirrorDir(), '--public-key', pub(), '--layout', 'files']);
    expect(r.code, r.stderr).toBe(0);
    const moved = indexEntries(origin)!.filter((e) => before.get(e.key) !== e.sha256).length;
    expect(r.stdout).toContain(`mirrored ${header.snapshotId} (packed): ${header.objects} objects in ${header.packs.length} packs`);
    expect(r.stdout).toContain(`; per-URL files ${moved} written from packs, ${header.objects - moved} linked`);
    const unchanged = indexEntries(origin)!.find((e) => before.get(e.key) === e.sha256)!;
    expect(statSync(join(mirrorDir(), currentOf(mirrorDir()), unchanged.key)).ino).toBe(statSync(join(mirrorDir(), previous, unchanged.key)).ino);
    const v = await runCli(['verify', mirrorDir(), '--public-key', pub()]);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toContain(`objects verified in ${header.packs.length} packs`);
  }, 240_000);
});
