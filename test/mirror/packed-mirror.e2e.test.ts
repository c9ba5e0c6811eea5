/**
 * End to end, packed origin (issue 17): a generated catalog compiled and signed by the real CLI,
 * packed (when the compile does not write packs itself, with the format's own writers:
 * test/helpers/packed-fixture.ts), served by `catalog serve` on a free port behind a relay that can
 * cut a pack download, refuse packs, or flip a byte of every pack. `catalog mirror` through its real
 * entry must: resume an interrupted run (the packs it finished are kept, the half pack resumes with
 * Range), end with a packed snapshot root that the proxy serves with the
 * origin's bytes and ETags (`catalog verify` of a packed root is another part of issue 17), fetch only the new packs after a recompile (counted at the relay), refuse
 * a tampered pack without switching, and with `--layout files` leave per-URL files that nginx
 * (docs/mirroring/nginx.conf) serves with the origin's bytes and ETags.
 */
import { chmodSync, existsSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManifestHeader } from '../../snapshots/manifest.js';
import { loadPrivateKey } from '../../snapshots/signature.js';
import { createFsSnapshotSource } from '../../snapshots/store/fs.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { nginxMissing, startNginx } from '../helpers/nginx.js';
import { packRoot } from '../helpers/packed-fixture.js';
import { sendHalfThenBreak, startRelay, type Relay } from '../helpers/relay.js';
import { type ServerProcess } from '../helpers/server-process.js';
import { expectNginxLikeOrigin, startMirrorOrigin } from '../helpers/mirror-origin.js';
import { createTestApp } from '../helpers/server-app.js';

type Mode = { kind: 'pass' } | { kind: 'interrupt'; after: number } | { kind: 'tamper' };

let dir: string;
let catalog: string;
let compiled: string;
let origin: string;
let server: ServerProcess | null = null;
let relay: Relay | null = null;
let relayUrl: string;
let mode: Mode = { kind: 'pass' };
let packsSeen = 0;
const relayLog: { path: string; range: string | undefined }[] = [];

const keys = () => join(dir, 'keys');
const pub = () => join(keys(), 'signing-key.pub.pem');
const currentOf = (root: string) => readlinkSync(join(root, 'current'));
const headerOf = (root: string, id = currentOf(root)): ManifestHeader => JSON.parse(readFileSync(join(root, id, 'manifest.ndjson'), 'utf8').split('\n')[0]);
const packRequests = () => relayLog.filter((l) => l.path.startsWith('/v1/snapshot/packs/'));
const packOf = (path: string) => path.slice('/v1/snapshot/packs/'.length, '/v1/snapshot/packs/'.length + 64);

function mirror(to: string, ...more: string[]) {
  return runCli(['mirror', '--from', relayUrl, '--key', `@${join(dir, 'key.txt')}`, '--to', to, '--public-key', pub(), '--concurrency', '1', ...more]);
}

/** Compiles the catalog, then makes sure the origin holds it packed (the compile's own packs, or the fixture's). */
async function compileOrigin(): Promise<void> {
  const r = await runCli(['compile', '--source', catalog, '--out', compiled, '--sign-key', join(keys(), 'signing-key.pem'), '--workers', '1']);
  expect(r.code, r.stderr).toBe(0);
  if (headerOf(compiled).version === 2) origin = compiled;
  else await packRoot(compiled, origin, loadPrivateKey(join(keys(), 'signing-key.pem')));
}

beforeAll(async () => {
  dir = tempDir('catalog-packed-mirror-');
  catalog = join(dir, 'catalog');
  compiled = join(dir, 'compiled');
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
    const before = relayLog.length;
    const r = await mirror(to());
    expect(r.code, r.stderr).toBe(0);
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
  }, 240_000);

  it('when run again on the same snapshot then no pack is fetched', async () => {
    const before = packRequests().length;
    const r = await mirror(to());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('is up to date');
    expect(packRequests().length).toBe(before);
  }, 60_000);

  it('when the origin recompiles then a tampered pack is refused without switching, and the next sync fetches only the new packs', async () => {
    const previous = currentOf(to());
    const oldPacks = new Set(headerOf(origin).packs!.map((p) => p.sha256));
    const cardsPath = join(catalog, 'cards.ndjson');
    const lines = readFileSync(cardsPath, 'utf8').trim().split('\n');
    writeFileSync(cardsPath, lines.map((l, i) => {
      if (i % 100 !== 0) return l;
      const card = JSON.parse(l);
      card.imageUrl = `${card.imageUrl ?? 'https://images.example.invalid/card.jpg'}?v=2`;
      return JSON.stringify(card);
    }).join('\n') + '\n');
    await compileOrigin();
    const fresh = headerOf(origin).packs!.filter((p) => !oldPacks.has(p.sha256));
    expect(fresh.length).toBeGreaterThan(0);
    expect(fresh.length).toBeLessThan(headerOf(origin).packs!.length);

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
  }, 240_000);

  it('when mirrored with --layout files then nginx serves the per-URL files with the origin\'s bytes, ETags and 304s', async (ctx) => {
    const files = join(dir, 'mirror-files');
    const r = await mirror(files, '--layout', 'files');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/per-URL files \d+ written from packs/);
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
  }, 240_000);
});
