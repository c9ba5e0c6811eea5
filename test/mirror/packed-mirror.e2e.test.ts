/**
 * End to end, packed origin (issue 17): a generated catalog compiled (packed) and signed by the real
 * CLI, served by `catalog serve` on a free port behind a relay that can cut a pack or bulk download,
 * refuse packs, or flip a byte of every pack. `catalog mirror` through its real entry must: resume an
 * interrupted run (the packs it finished are kept, the half pack resumes with Range, a cut bulk
 * download too), end with a packed snapshot root that the proxy serves with the origin's bytes and
 * ETags, refuse a wrong public key, a wrong API key and a folder that is not a mirror, fetch only the
 * new packs after a recompile (counted at the relay), refuse a tampered manifest and a tampered pack
 * without switching, and with `--layout files` leave per-URL files that nginx
 * (docs/mirroring/nginx.conf) serves with the origin's bytes and ETags, linking what did not change.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManifestHeader } from '../../snapshots/manifest.js';
import { createFsSnapshotSource } from '../../snapshots/store/fs.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { nginxMissing, startNginx } from '../helpers/nginx.js';
import { indexEntries, readStored } from '../helpers/snapshot-files.js';
import { sendHalfThenBreak, startRelay, type Relay } from '../helpers/relay.js';
import { type ServerProcess } from '../helpers/server-process.js';
import { expectNginxLikeOrigin, startMirrorOrigin } from '../helpers/mirror-origin.js';
import { createTestApp } from '../helpers/server-app.js';

type Mode = { kind: 'pass' } | { kind: 'interrupt'; after: number } | { kind: 'tamper' };

let dir: string;
let catalog: string;
let origin: string;
let server: ServerProcess | null = null;
let relay: Relay | null = null;
let relayUrl: string;
let mode: Mode = { kind: 'pass' };
let packsSeen = 0;
/** Cut the next bulk download of the cards in half (the mirror must resume it with Range). */
let cutNextBulk = false;
const relayLog: { path: string; range: string | undefined }[] = [];

const keys = () => join(dir, 'keys');
const pub = () => join(keys(), 'signing-key.pub.pem');
const currentOf = (root: string) => readlinkSync(join(root, 'current'));
const headerOf = (root: string, id = currentOf(root)): ManifestHeader => JSON.parse(readFileSync(join(root, id, 'manifest.ndjson'), 'utf8').split('\n')[0]);
const packRequests = () => relayLog.filter((l) => l.path.startsWith('/v1/snapshot/packs/'));
const packOf = (path: string) => path.slice('/v1/snapshot/packs/'.length, '/v1/snapshot/packs/'.length + 64);

function mirror(to: string, ...more: string[]) {
  return mirrorWith({ to }, ...more);
}

function mirrorWith(o: { to: string; publicKey?: string; keyFile?: string }, ...more: string[]) {
  return runCli(['mirror', '--from', relayUrl, '--key', `@${o.keyFile ?? join(dir, 'key.txt')}`, '--to', o.to, '--public-key', o.publicKey ?? pub(), '--concurrency', '1', ...more]);
}

/** Changes the image of every 100th card (the next compile changes their documents and the aggregates that list them). */
function changeOnePercent(suffix: string): void {
  const cardsPath = join(catalog, 'cards.ndjson');
  const lines = readFileSync(cardsPath, 'utf8').trim().split('\n');
  writeFileSync(cardsPath, lines.map((l, i) => {
    if (i % 100 !== 0) return l;
    const card = JSON.parse(l);
    card.imageUrl = `${(card.imageUrl ?? 'https://images.example.invalid/card.jpg').split('?')[0]}${suffix}`;
    return JSON.stringify(card);
  }).join('\n') + '\n');
}

async function compileOrigin(): Promise<void> {
  const r = await runCli(['compile', '--source', catalog, '--out', origin, '--sign-key', join(keys(), 'signing-key.pem'), '--workers', '1']);
  expect(r.code, r.stderr).toBe(0);
  expect(headerOf(origin).version).toBe(2);
}

beforeAll(async () => {
  dir = tempDir('catalog-packed-mirror-');
  catalog = join(dir, 'catalog');
  origin = join(dir, 'origin');
  for (const args of [['generate', '--out', catalog, '--cards', '300', '--seed', '5'], ['signing', 'init', '--out', keys()]]) {
    const r = await runCli(args);
    expect(r.code, r.stderr).toBe(0);
  }
  await compileOrigin();
  server = await startMirrorOrigin(dir, origin, pub());
  const isPack = (req: { url?: string }) => (req.url ?? '').startsWith('/v1/snapshot/packs/');
  relay = await startRelay(server.url, {
    before(req, res) {
      relayLog.push({ path: req.url ?? '', range: req.headers.range });
      if (!(isPack(req) && mode.kind === 'interrupt' && packsSeen > mode.after)) return false;
      // After the cut: the origin refuses packs, so the run stops with the half pack on disk.
      res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'forbidden', message: 'relay: packs refused for the test' }));
      return true;
    },
    after(req, upRes, res) {
      if (cutNextBulk && (req.url ?? '').startsWith('/v1/bulk/cards') && upRes.statusCode === 200) {
        cutNextBulk = false;
        sendHalfThenBreak(upRes, res);
        return true;
      }
      if (!isPack(req) || upRes.statusCode !== 200 || mode.kind === 'pass') return false;
      packsSeen++;
      if (mode.kind === 'tamper') {
        let first = true;
        upRes.on('data', (chunk: Buffer) => {
          const out = Buffer.from(chunk);
          if (first) out[0] ^= 0xff;
          first = false;
          res.write(out);
        });
        upRes.on('end', () => res.end());
        return true;
      }
      if (packsSeen <= mode.after) return false;
      sendHalfThenBreak(upRes, res);
      return true;
    },
  });
  relayUrl = relay.url;
}, 180_000);

afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  await relay?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The same answers (status, bytes, ETag) from the origin and from an app over the mirror, for a few documents. */
async function expectServedLikeOrigin(mirrorRoot: string): Promise<void> {
  const app = await createTestApp({ snapshots: createFsSnapshotSource(mirrorRoot) });
  const key = readFileSync(join(dir, 'key.txt'), 'utf8').trim();
  try {
    const card = JSON.parse(readFileSync(join(catalog, 'cards.ndjson'), 'utf8').split('\n')[0]).id;
    for (const path of [`/v1/cards/${card}`, `/v1/cards/${card}?range=3mo`, '/v1/catalog/summary', '/v1/snapshot/manifest', '/v1/bulk/cards']) {
      const o = await request(`${server!.url}${path}`, { headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip' } });
      const m = await app.request(path, { headers: { ...app.headers, 'accept-encoding': 'gzip' } });
      const ob = Buffer.from(await o.body.arrayBuffer());
      expect([path, m.status]).toEqual([path, 200]);
      expect(Buffer.from(await m.arrayBuffer()).equals(ob), path).toBe(true);
      expect(m.headers.get('etag'), path).toBe(o.headers.etag);
      expect(m.headers.get('x-snapshot-id'), path).toBe(o.headers['x-snapshot-id']);
    }
  } finally {
    app.close();
  }
}

/** `catalog verify <mirror> --public-key` accepts the mirror: every pack, file and object, and the signature. */
async function expectVerified(mirrorRoot: string): Promise<void> {
  const v = await runCli(['verify', mirrorRoot, '--public-key', pub()]);
  expect(v.code, v.stderr).toBe(0);
  expect(v.stdout).toContain(`snapshot ${currentOf(mirrorRoot)}: ${headerOf(mirrorRoot).objects} objects verified in ${headerOf(mirrorRoot).packs!.length} packs`);
  expect(v.stdout).toContain('manifest signature valid');
}

describe('catalog mirror from a packed origin', () => {
  const to = () => join(dir, 'mirror');

  it('when a first mirror is interrupted mid-pack then the next run keeps the finished packs, resumes the cut one with Range, and serves like the origin', async () => {
    const packs = headerOf(origin).packs!;
    // Some packs finish before the cut (the compile seals a pack at 256 MiB, so a small catalog has few).
    expect(packs.length).toBeGreaterThanOrEqual(2);
    const held = Math.min(2, packs.length - 1);
    mode = { kind: 'interrupt', after: held };
    packsSeen = 0;
    const started = Date.now();
    const broken = await mirror(to());
    // It stops at the refusal, without waiting out retries of the packs still queued.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(broken.stderr, `${broken.code} ${broken.stdout}`).toContain("packs refused for the test");
    expect(broken.code).not.toBe(0);
    expect(existsSync(join(to(), 'current'))).toBe(false);
    // The whole packs under their real names, the cut one only as a part file.
    expect(readdirSync(join(to(), 'packs')).filter((n) => n.endsWith('.pack')).length).toBe(held);
    const parts = readdirSync(join(to(), '.partial', 'packs'));
    expect(parts.length).toBe(1);
    expect(parts[0]).toMatch(/^[0-9a-f]{64}\.pack\.part$/);
    const cut = parts[0].slice(0, 64);

    mode = { kind: 'pass' };
    cutNextBulk = true;
    const before = relayLog.length;
    const r = await mirror(to());
    expect(r.code, r.stderr).toBe(0);
    // The cut bulk download went on from where it broke, in the same run.
    const bulk = relayLog.slice(before).filter((l) => l.path.startsWith('/v1/bulk/cards'));
    expect(bulk.map((l) => l.range)).toEqual([undefined, expect.stringMatching(/^bytes=[1-9]\d*-$/)]);
    expect(r.stdout).toContain(`mirrored ${currentOf(origin)} (packed): ${headerOf(origin).objects} objects in ${packs.length} packs (${packs.length - held} fetched`);
    expect(r.stdout).toContain(`; ${held} already held; 1 resumed)`);
    const resumed = relayLog.slice(before).filter((l) => l.path.startsWith(`/v1/snapshot/packs/${cut}`));
    expect(resumed.map((l) => l.range)).toEqual([expect.stringMatching(/^bytes=[1-9]\d*-$/)]);
    expect(currentOf(to())).toBe(currentOf(origin));
    expect(existsSync(join(to(), '.partial', 'packs'))).toBe(false);
    for (const p of packs) expect(readFileSync(join(to(), 'packs', `${p.sha256}.pack`)).equals(readFileSync(join(origin, 'packs', `${p.sha256}.pack`)))).toBe(true);
    expect(readFileSync(join(to(), 'current', 'manifest.ndjson')).equals(readFileSync(join(origin, 'current', 'manifest.ndjson')))).toBe(true);
    // Packs layout: no per-URL files.
    expect(existsSync(join(to(), 'current', 'v1'))).toBe(false);
    await expectServedLikeOrigin(to());
    await expectVerified(to());
  }, 240_000);

  it('when run again on the same snapshot then no pack is fetched', async () => {
    const before = packRequests().length;
    const r = await mirror(to());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('is up to date');
    expect(packRequests().length).toBe(before);
  }, 60_000);

  it('when the public key, the API key or the target folder is wrong then it fails saying so and writes no snapshot', async () => {
    const other = join(dir, 'other-keys');
    expect((await runCli(['signing', 'init', '--out', other])).code).toBe(0);
    const wrongPub = join(dir, 'wrong-pub-mirror');
    const signed = await mirrorWith({ to: wrongPub, publicKey: join(other, 'signing-key.pub.pem') });
    expect(signed.code).toBe(65);
    expect(signed.stderr).toContain('is signed by another key');
    expect(existsSync(join(wrongPub, 'current'))).toBe(false);
    expect(readdirSync(join(wrongPub, '.partial', currentOf(origin)))).toEqual([]);

    // A well-formed key the origin never issued (minted into another state file).
    const minted = await runCli(['keys', 'mint', '--state', join(dir, 'other-state.sqlite'), '--tenant', 'stranger', '--tier', 'enterprise', '--json']);
    expect(minted.code, minted.stderr).toBe(0);
    writeFileSync(join(dir, 'bad-key.txt'), JSON.parse(minted.stdout).key + '\n', { mode: 0o600 });
    const wrongKey = join(dir, 'wrong-key-mirror');
    const denied = await mirrorWith({ to: wrongKey, keyFile: join(dir, 'bad-key.txt') });
    expect(denied.code).toBe(77);
    expect(denied.stderr).toContain('/v1/snapshot: A Bearer API key');
    expect(existsSync(join(wrongKey, 'current'))).toBe(false);

    const notMirror = join(dir, 'not-a-mirror');
    mkdirSync(notMirror);
    writeFileSync(join(notMirror, 'precious.txt'), 'keep me');
    const refused = await mirror(notMirror);
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain('is not a catalog mirror');
    expect(readdirSync(notMirror)).toEqual(['precious.txt']);
    // The origin's own snapshot root is not a mirror either.
    expect((await mirror(origin)).code).toBe(64);
  }, 60_000);

  it('when the origin recompiles then a tampered pack is refused without switching, and the next sync fetches only the new packs', async () => {
    const previous = currentOf(to());
    const oldPacks = new Set(headerOf(origin).packs!.map((p) => p.sha256));
    changeOnePercent('?v=2');
    await compileOrigin();
    const fresh = headerOf(origin).packs!.filter((p) => !oldPacks.has(p.sha256));
    expect(fresh.length).toBeGreaterThan(0);
    expect(fresh.length).toBeLessThan(headerOf(origin).packs!.length);

    // A manifest altered at the origin after signing is refused before any pack is fetched.
    const manifestPath = join(origin, currentOf(origin), 'manifest.ndjson');
    const genuine = readFileSync(manifestPath);
    writeFileSync(manifestPath, Buffer.from(genuine.toString('utf8').replace(/"objects":(\d+)/, (_, n) => `"objects":${Number(n) + 1}`)));
    const packsBefore = packRequests().length;
    const altered = await mirror(to());
    expect(altered.code).toBe(65);
    expect(altered.stderr).toContain('changed after signing');
    expect(packRequests().length).toBe(packsBefore);
    expect(currentOf(to())).toBe(previous);
    writeFileSync(manifestPath, genuine);

    mode = { kind: 'tamper' };
    const tampered = await mirror(to());
    expect(tampered.code).toBe(65);
    expect(tampered.stderr).toContain('does not match the signed manifest');
    expect(currentOf(to())).toBe(previous);
    for (const p of fresh) expect(existsSync(join(to(), 'packs', `${p.sha256}.pack`))).toBe(false);

    mode = { kind: 'pass' };
    const before = relayLog.length;
    const r = await mirror(to());
    expect(r.code, r.stderr).toBe(0);
    const fetched = relayLog.slice(before).filter((l) => l.path.startsWith('/v1/snapshot/packs/'));
    expect(fetched.map((l) => packOf(l.path)).sort()).toEqual(fresh.map((p) => p.sha256).sort());
    expect(r.stdout).toContain(`(${fresh.length} fetched`);
    expect(r.stdout).toContain(`(was ${previous})`);
    expect(currentOf(to())).toBe(currentOf(origin));
    await expectServedLikeOrigin(to());
    await expectVerified(to());
  }, 240_000);

  it('when mirrored with --layout files then nginx serves the per-URL files with the origin\'s bytes, ETags and 304s, and a re-sync writes only the changed objects', async (ctx) => {
    const files = join(dir, 'mirror-files');
    const r = await mirror(files, '--layout', 'files');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`; per-URL files ${headerOf(origin).objects} written from packs, 0 linked`);
    expect(readFileSync(join(files, 'current', 'etags.map'), 'utf8')).toContain(`"${currentOf(files)}:/v1/catalog/summary.json" "\\"`);
    chmodSync(dir, 0o755);
    const nginx = await startNginx(files, join(dir, 'nginx'));
    if (nginx === null) return nginxMissing(ctx, 'the nginx check of a --layout files mirror');
    try {
      const card = JSON.parse(readFileSync(join(catalog, 'cards.ndjson'), 'utf8').split('\n')[0]).id;
      await expectNginxLikeOrigin(dir, server!.url, nginx.url, [`/v1/cards/${card}?range=3mo`, `/v1/cards/${card}`, '/v1/catalog/summary', '/v1/bulk/cards', '/v1/snapshot/manifest']);
    } finally {
      await nginx.stop();
    }

    // 1% of the cards change again: the re-sync writes the objects whose hash changed, links the rest.
    const previous = currentOf(files);
    const before = new Map(indexEntries(origin)!.map((e) => [e.key, e.sha256]));
    changeOnePercent('?v=3');
    await compileOrigin();
    const after = indexEntries(origin)!;
    const moved = after.filter((e) => before.get(e.key) !== e.sha256);
    expect(moved.length).toBeGreaterThan(0);
    expect(moved.length).toBeLessThan(after.length / 10);
    const again = await mirror(files, '--layout', 'files');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`; per-URL files ${moved.length} written from packs, ${after.length - moved.length} linked`);
    const unchanged = after.find((e) => before.get(e.key) === e.sha256)!;
    expect(statSync(join(files, currentOf(files), unchanged.key)).ino).toBe(statSync(join(files, previous, unchanged.key)).ino);
    for (const e of moved.slice(0, 20)) expect(readFileSync(join(files, 'current', e.key)).equals(readStored(origin, e.key)!), e.key).toBe(true);
    // `catalog verify` reads the packed snapshot and leaves the per-URL files and etags.map alone.
    await expectVerified(files);
    // And it can fail: one flipped byte in a pack the snapshot uses.
    const pack = join(files, 'packs', `${after.find((e) => e.key === moved[0].key)!.pack}.pack`);
    const genuine = readFileSync(pack);
    const damaged = Buffer.from(genuine);
    damaged[Math.floor(damaged.length / 2)] ^= 0xff;
    writeFileSync(pack, damaged);
    const v = await runCli(['verify', files, '--public-key', pub()]);
    writeFileSync(pack, genuine);
    expect(v.code, v.stdout).toBe(65);
  }, 240_000);
});
