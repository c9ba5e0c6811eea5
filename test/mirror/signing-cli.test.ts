/**
 * `catalog signing init`, `compile --sign-key` and `verify --public-key` through the real binary:
 * the private key file is 0600 and never printed, verify tells an unsigned snapshot, another key,
 * a manifest changed after signing and a truncated bulk file apart, and bulk files are
 * deterministic and re-used by an incremental compile.
 */
import { appendFileSync, readFileSync, readlinkSync, rmSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';

let dir: string;
let catalog: string;
const key = () => join(dir, 'keys', 'signing-key.pem');
const pub = () => join(dir, 'keys', 'signing-key.pub.pem');
const compile = (out: string, sign = true) =>
  runCli(['compile', '--source', catalog, '--out', out, '--workers', '0', ...(sign ? ['--sign-key', key()] : [])]);
const bulkOf = (root: string) => JSON.parse(readFileSync(join(root, readlinkSync(join(root, 'current')), 'manifest.ndjson'), 'utf8').split('\n')[0]).bulk;

beforeAll(async () => {
  dir = tempDir('catalog-signing-');
  catalog = join(dir, 'catalog');
  expect((await runCli(['generate', '--out', catalog, '--cards', '80', '--seed', '2'])).code).toBe(0);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('catalog signing init', () => {
  it('when run then the private key is mode 0600 and not printed, and a second run refuses to overwrite', async () => {
    const r = await runCli(['signing', 'init', '--out', join(dir, 'keys')]);
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(key()).mode & 0o777).toBe(0o600);
    expect(r.stdout).not.toContain('PRIVATE KEY');
    expect(r.stdout).not.toContain(readFileSync(key(), 'utf8').split('\n')[1]);
    expect(r.stdout).toMatch(/fingerprint: sha256:[0-9a-f]{64}/);
    const again = await runCli(['signing', 'init', '--out', join(dir, 'keys')]);
    expect(again.code).toBe(64);
    expect(again.stderr).toContain('never overwrites');
  });
});

describe('catalog verify --public-key', () => {
  it('when the snapshot is signed with the key then verify passes and says so', async () => {
    const root = join(dir, 'signed');
    const c = await compile(root);
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout).toContain('manifest signed');
    const v = await runCli(['verify', root, '--public-key', pub()]);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toContain('manifest signature valid');
  }, 60_000);

  it('when the snapshot is unsigned, signed by another key, or changed after signing then each says which', async () => {
    const unsigned = join(dir, 'unsigned');
    expect((await compile(unsigned, false)).code).toBe(0);
    const u = await runCli(['verify', unsigned, '--public-key', pub()]);
    expect(u.code).toBe(65);
    expect(u.stderr).toContain('is not signed');

    const otherKeys = join(dir, 'other');
    expect((await runCli(['signing', 'init', '--out', otherKeys])).code).toBe(0);
    const root = join(dir, 'signed');
    const w = await runCli(['verify', root, '--public-key', join(otherKeys, 'signing-key.pub.pem')]);
    expect(w.code).toBe(65);
    expect(w.stderr).toContain('signed by another key');

    const p = await runCli(['verify', root, '--public-key', key()]);
    expect(p.code).toBe(64);
    expect(p.stderr).toContain('is a private key');

    const tampered = join(dir, 'tampered');
    expect((await compile(tampered)).code).toBe(0);
    appendFileSync(join(tampered, readlinkSync(join(tampered, 'current')), 'manifest.ndjson'), '\n');
    const t = await runCli(['verify', tampered, '--public-key', pub()]);
    expect(t.code).toBe(65);
    expect(t.stderr).toContain('changed after signing');
  }, 90_000);

  it('when a bulk file is truncated then verify names it', async () => {
    const root = join(dir, 'truncated');
    expect((await compile(root)).code).toBe(0);
    const file = join(root, readlinkSync(join(root, 'current')), 'bulk', 'cards.ndjson.gz');
    truncateSync(file, Math.floor(statSync(file).size / 2));
    const v = await runCli(['verify', root]);
    expect(v.code).toBe(65);
    expect(v.stderr).toMatch(/bulk\/cards\.ndjson\.gz: \d+ bytes, the manifest says \d+ \(truncated or changed\)/);
  }, 60_000);
});

describe('bulk files', () => {
  it('when the same catalog is compiled twice then bulk files are byte-identical and the second compile re-uses them', async () => {
    const a = join(dir, 'det-a');
    const b = join(dir, 'det-b');
    expect((await compile(a)).code).toBe(0);
    expect((await compile(b)).code).toBe(0);
    expect(bulkOf(a).map((f: { sha256: string }) => f.sha256)).toEqual(bulkOf(b).map((f: { sha256: string }) => f.sha256));
    const first = readlinkSync(join(a, 'current'));
    expect((await compile(a)).code).toBe(0);
    const second = readlinkSync(join(a, 'current'));
    expect(second).not.toBe(first);
    // Unchanged inputs: the cards file of the new snapshot is the previous one, hard-linked.
    expect(statSync(join(a, second, 'bulk', 'cards.ndjson.gz')).ino).toBe(statSync(join(a, first, 'bulk', 'cards.ndjson.gz')).ino);
    expect(bulkOf(a).find((f: { name: string }) => f.name === 'cards').count).toBe(80);
  }, 90_000);
});
