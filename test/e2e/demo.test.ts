/**
 * `catalog demo` end to end with the real binary: generate (small), compile and sign, mint, serve,
 * answer with the printed key, stop on SIGINT (Ctrl-C) with exit 0; a partner mirrors it with the
 * public key it publishes; a second demo on a taken port fails before it changes anything; a second
 * run re-uses the catalog and the signing key pair.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

let dir: string;
let running: ServerProcess | null = null;
let first: { key: string; url: string; server: ServerProcess };

const snapshots = () => join(dir, 'snapshots');
const publicKeyFile = () => join(dir, 'signing', 'signing-key.pub.pem');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'catalog-demo-'));
});
afterAll(() => {
  running?.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function runDemo(args: string[] = ['--port', '0'], env: NodeJS.ProcessEnv = {}): Promise<{ key: string; url: string; server: ServerProcess }> {
  // The demo's banner names the URL once the key is minted: that is when it serves the demo.
  running = await startServerProcess(['demo', '--dir', dir, '--cards', '200', ...args], { timeoutMs: 60_000, env, ready: /^ {2}URL {2}(http:\/\/\S+)$/m });
  const key = /Key {2}(rxk_[0-9A-Za-z]{32})/.exec(running.stdout())?.[1];
  expect(key).toBeDefined();
  expect(running.stdout()).toContain(`curl -s --compressed -H 'Authorization: Bearer ${key}' ${running.url}/v1/catalog/summary`);
  return { key: key!, url: running.url, server: running };
}

/** What a second demo must leave alone: the `current` pointer, the snapshot folders and every key row. */
function demoState() {
  const db = new Database(join(dir, 'state.sqlite'), { readonly: true });
  try {
    return {
      current: readlinkSync(join(snapshots(), 'current')),
      currentJson: readFileSync(join(snapshots(), 'current.json'), 'utf8'),
      folders: readdirSync(snapshots()).sort(),
      keys: db.prepare('SELECT * FROM api_keys ORDER BY key_id').all(),
    };
  } finally {
    db.close();
  }
}

describe('catalog demo', () => {
  it('generates, compiles and signs, mints a key, serves, and prints the serve line once', async () => {
    // A limit no mirror of 200 cards reaches, so the mirror test below is not paced by the tier.
    first = await runDemo(['--port', '0'], { CATALOG_TIER_LIMITS: 'standard=999999999' });
    const { key, url, server } = first;
    const res = await fetch(`${url}/v1/catalog/summary`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.kind).toBe('catalogSummary');
    const trending = await fetch(`${url}/v1/trending?limit=3`, { headers: { Authorization: `Bearer ${key}` } });
    expect((await trending.json()).data).toHaveLength(3);
    expect(server.stderr()).toContain('generating a catalog of 200 cards');
    const output = server.stdout() + server.stderr();
    expect(output.split(`listening on ${url}`).length - 1, output).toBe(1);
    // The key pair lives in the demo's folder; the private half is readable by its owner only.
    expect(statSync(join(dir, 'signing', 'signing-key.pem')).mode & 0o777).toBe(0o600);
    expect(existsSync(join(snapshots(), 'current', 'manifest.ndjson.sig'))).toBe(true);
  });

  it('a partner mirrors it with the public key fetched from /v1/snapshot/public-key, and the mirror verifies', async () => {
    const { key, url } = first;
    const res = await fetch(`${url}/v1/snapshot/public-key`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const pem = await res.text();
    expect(pem).toBe(readFileSync(publicKeyFile(), 'utf8'));
    const pinned = join(dir, 'demo-signing-key.pub.pem');
    const keyFile = join(dir, 'key.txt');
    writeFileSync(pinned, pem);
    writeFileSync(keyFile, key + '\n', { mode: 0o600 });
    const mirror = join(dir, 'mirror');
    const m = await runCli(['mirror', '--from', url, '--key', `@${keyFile}`, '--to', mirror, '--public-key', pinned], { timeoutMs: 120_000 });
    expect(m.code, m.stderr).toBe(0);
    expect(m.stdout).toMatch(/^mirrored \S+ \(packed\): \d+ objects in \d+ packs .*; signature, files and packs verified/);
    expect(readlinkSync(join(mirror, 'current'))).toBe(readlinkSync(join(snapshots(), 'current')));
    const v = await runCli(['verify', mirror, '--public-key', pinned]);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toContain('manifest signature valid');
  }, 150_000);

  it('a second demo on the same folder and a taken port fails with 74, says how to pass another port, and changes nothing', async () => {
    const before = demoState();
    const port = Number(new URL(first.url).port);
    const second = await runCli(['demo', '--dir', dir, '--cards', '200', '--port', String(port)], { timeoutMs: 60_000 });
    expect(second.code, second.stderr).toBe(74);
    expect(second.stderr).toContain(`cannot listen on http://127.0.0.1:${port}: EADDRINUSE`);
    expect(second.stderr).toContain(`npm start -- --port ${port + 1}`);
    expect(second.stderr).not.toContain('compiling');
    expect(second.stdout).not.toMatch(/rxk_/);
    expect(demoState()).toEqual(before);
  }, 90_000);

  it('stops cleanly on Ctrl-C', async () => {
    first.server.child.kill('SIGINT');
    expect(await first.server.exited).toEqual({ code: 0, signal: null });
    running = null;
  });

  it('a second run re-uses the catalog and the signing key pair, and mints a new key', async () => {
    const pem = readFileSync(publicKeyFile(), 'utf8');
    const { key, url, server } = await runDemo();
    expect(server.stderr()).toContain('using the catalog in');
    expect(key).not.toBe(first.key);
    expect(readFileSync(publicKeyFile(), 'utf8')).toBe(pem);
    const res = await fetch(`${url}/v1/snapshot/public-key`, { headers: { Authorization: `Bearer ${key}` } });
    expect(await res.text()).toBe(pem);
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    running = null;
  });

  it('a signing folder holding half a key pair is refused before anything is bound or written', async () => {
    const other = mkdtempSync(join(tmpdir(), 'catalog-demo-half-'));
    try {
      mkdirSync(join(other, 'signing'));
      writeFileSync(join(other, 'signing', 'signing-key.pub.pem'), readFileSync(publicKeyFile()));
      const r = await runCli(['demo', '--dir', other, '--port', '0', '--cards', '10'], { timeoutMs: 30_000 });
      expect(r.code, r.stderr).toBe(64);
      expect(r.stderr).toMatch(/signing-key\.pub\.pem exists but \S+signing-key\.pem does not; restore it, or move \S+ away to make a new key pair/);
      expect(readdirSync(other)).toEqual(['signing']);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
