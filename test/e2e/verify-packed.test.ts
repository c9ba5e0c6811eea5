/**
 * `catalog verify` on packed snapshots through the real binary, the same scenarios on the folder
 * store and on S3 (OpenStack Swift with s3api on loopback): a clean snapshot passes, and each kind
 * of damage is named with exit 65: a flipped byte in a pack, a truncated pack, a missing pack, a
 * changed object index, a manifest changed after signing (caught by the signature with a key, by the
 * hashes without one), a pack the manifest leaves out, an index row outside its pack.
 */
import Database from 'better-sqlite3';
import type { KeyObject } from 'node:crypto';
import { cpSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_FILE, OBJECT_INDEX_FILE, PACKS_DIR } from '../../snapshots/keys.js';
import { loadPrivateKey } from '../../snapshots/signature.js';
import { createS3BlobStore } from '../../snapshots/store/blob-s3.js';
import { createS3Client } from '../../snapshots/store/s3-client.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { readPackedHeader, rewritePackedManifest, uploadRoot } from '../helpers/packed-root.js';
import { swiftPlan } from '../helpers/swift.js';
import { createTestBucket, removeBucket, testBucketName } from '../helpers/s3-bucket.js';

let dir: string;
let template: string;
let id: string;
let publicKeyFile: string;
let signKey: KeyObject;

/**
 * The template: a catalog compiled by the real CLI, signed, then compiled again after one price
 * changed, so the current snapshot references two packs (the first compile's, and the new one with
 * the changed objects).
 */
beforeAll(async () => {
  dir = tempDir('catalog-verify-packed-');
  const catalog = join(dir, 'catalog');
  template = join(dir, 'template');
  const keys = join(dir, 'keys');
  const run = async (args: string[]) => {
    const r = await runCli(args);
    if (r.code !== 0) throw new Error(`catalog ${args.join(' ')}: ${r.stderr}`);
  };
  await run(['generate', '--out', catalog, '--cards', '40', '--seed', '7']);
  await run(['signing', 'init', '--out', keys]);
  publicKeyFile = join(keys, 'signing-key.pub.pem');
  signKey = loadPrivateKey(join(keys, 'signing-key.pem'));
  const compile = () => run(['compile', '--source', catalog, '--out', template, '--workers', '0', '--sign-key', join(keys, 'signing-key.pem')]);
  await compile();
  const prices = readFileSync(join(catalog, 'prices.ndjson'), 'utf8').split('\n');
  const rec = JSON.parse(prices[0]);
  rec.usdCents[rec.usdCents.length - 1] += 12345;
  prices[0] = JSON.stringify(rec);
  writeFileSync(join(catalog, 'prices.ndjson'), prices.join('\n'));
  await compile();
  id = readlinkSync(join(template, 'current'));
  expect(readPackedHeader(template, id).packs!.length).toBeGreaterThanOrEqual(2);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const packFile = (root: string, sha: string) => join(root, PACKS_DIR, `${sha}.pack`);
const withIndex = <T>(root: string, f: (db: Database.Database) => T): T => {
  const db = new Database(join(root, id, OBJECT_INDEX_FILE));
  try {
    return f(db);
  } finally {
    db.close();
  }
};

interface Scenario {
  name: string;
  /** Damages a fresh copy of the packed root; returns what stderr must contain. */
  damage(root: string): (string | RegExp)[];
  publicKey?: boolean;
}

const scenarios: Scenario[] = [
  {
    name: 'a flipped byte in a pack names the pack and the object whose bytes it is in',
    damage(root) {
      const pack = readPackedHeader(root, id).packs![0];
      const row = withIndex(root, (db) =>
        db.prepare('SELECT o.key AS key, o.offset AS offset, o.length AS length FROM objects o JOIN packs p ON p.seq = o.pack WHERE p.sha256 = ? ORDER BY o.key LIMIT 1').get(pack.sha256),
      ) as { key: string; offset: number; length: number };
      const bytes = readFileSync(packFile(root, pack.sha256));
      bytes[row.offset + Math.floor(row.length / 2)] ^= 0xff;
      writeFileSync(packFile(root, pack.sha256), bytes);
      return [`pack ${pack.sha256}: its bytes do not hash to its name (changed)`, `${row.key}: sha256 differs from the index (pack ${pack.sha256}`];
    },
  },
  {
    name: 'a truncated pack names the pack and the objects past its end',
    damage(root) {
      const pack = readPackedHeader(root, id).packs!.at(-1)!;
      const half = Math.floor(pack.size / 2);
      truncateSync(packFile(root, pack.sha256), half);
      return [`pack ${pack.sha256}: ${half} bytes, the manifest says ${pack.size} (truncated or changed)`, new RegExp(`lie outside its pack ${pack.sha256} \\(${half} bytes\\)`)];
    },
  },
  {
    name: 'a missing pack is named with the objects that could not be checked',
    damage(root) {
      const pack = readPackedHeader(root, id).packs![1];
      rmSync(packFile(root, pack.sha256));
      return [`pack ${pack.sha256}: missing (packs/${pack.sha256}.pack)`, `not checked, its pack ${pack.sha256} is missing`];
    },
  },
  {
    name: 'a changed object index no longer matches the manifest',
    damage(root) {
      withIndex(root, (db) => db.prepare("UPDATE objects SET input = 'changed' WHERE key = 'v1/catalog/summary.json.gz'").run());
      return [/objects\.sqlite: (sha256 differs from the manifest|\d+ bytes, the manifest says \d+)/];
    },
  },
  {
    name: 'a manifest changed after signing fails the signature check',
    publicKey: true,
    damage(root) {
      const path = join(root, id, MANIFEST_FILE);
      writeFileSync(path, readFileSync(path, 'utf8').replace('"asOf":"', '"asOf":"1'));
      return ['the manifest does not match its signature', 'it was changed after signing'];
    },
  },
  {
    name: 'a manifest changed without a key to check it is caught by the hashes',
    damage(root) {
      const path = join(root, id, MANIFEST_FILE);
      const header = readPackedHeader(root, id);
      const search = header.files!.find((f) => f.name === 'search.sqlite')!;
      writeFileSync(path, readFileSync(path, 'utf8').replace(search.sha256, '0'.repeat(64)));
      return ['search.sqlite: sha256 differs from the manifest'];
    },
  },
  {
    name: 'a pack the index uses but the (re-signed) manifest leaves out is named',
    publicKey: true,
    damage(root) {
      const header = readPackedHeader(root, id);
      const [left, ...rest] = header.packs!;
      rewritePackedManifest(root, id, { ...header, packs: rest }, signKey);
      return [`pack ${left.sha256}: the index references it, the manifest does not list it`, `not checked, its pack ${left.sha256} is not in the manifest`];
    },
  },
  {
    name: 'an index row outside its pack is named, even when the manifest lists the changed index',
    publicKey: true,
    damage(root) {
      const key = 'v1/catalog/summary.json.gz';
      const size = withIndex(root, (db) => {
        const s = db.prepare('SELECT p.size FROM objects o JOIN packs p ON p.seq = o.pack WHERE o.key = ?').pluck().get(key) as number;
        db.prepare('UPDATE objects SET offset = ? - 10 WHERE key = ?').run(s, key);
        return s;
      });
      rewritePackedManifest(root, id, undefined, signKey);
      return [new RegExp(`${key}: bytes ${size - 10}-\\d+ lie outside its pack [0-9a-f]{64} \\(${size} bytes\\)`)];
    },
  },
];

let copies = 0;
function freshCopy(): string {
  const root = join(dir, `copy-${++copies}`);
  cpSync(template, root, { recursive: true, verbatimSymlinks: true });
  return root;
}

/** Runs each scenario against the root `place` makes of a damaged local copy (the copy itself, or an upload of it). */
function storeSuite(place: (root: string, name: string) => Promise<string>, env: () => Record<string, string>) {
  const verify = (location: string, publicKey: boolean, extra: Record<string, string> = {}) =>
    runCli(['verify', location, ...(publicKey ? ['--public-key', publicKeyFile] : [])], { env: { ...env(), ...extra }, timeoutMs: 60_000 });

  it('when the packed snapshot is whole then verify passes, counts packs, objects and files, and checks the signature', async () => {
    const header = readPackedHeader(template, id);
    const tmp = join(dir, `tmp-${++copies}`);
    mkdirSync(tmp);
    const r = await verify(await place(freshCopy(), 'clean'), true, { TMPDIR: tmp });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      `snapshot ${id}: ${header.objects} objects verified in ${header.packs!.length} packs and ${header.files!.length + header.bulk!.length} files, all match the index and the manifest, manifest signature valid`,
    );
    // The index downloaded from S3 went to a temporary file that is gone.
    expect(readdirSync(tmp)).toEqual([]);
  }, 60_000);

  for (const s of scenarios) {
    it(`when ${s.name}`, async () => {
      const root = freshCopy();
      const expected = s.damage(root);
      const r = await verify(await place(root, `s${scenarios.indexOf(s)}`), s.publicKey === true);
      expect(r.code, r.stderr).toBe(65);
      for (const e of expected) {
        if (typeof e === 'string') expect(r.stderr).toContain(e);
        else expect(r.stderr).toMatch(e);
      }
    }, 60_000);
  }
}

describe('catalog verify on a packed snapshot in a folder', () => {
  storeSuite(async (root) => root, () => ({}));

  it('when a folder root has current.json but no current link (copied from an object store) then it is verified', async () => {
    const root = freshCopy();
    rmSync(join(root, 'current'));
    const r = await runCli(['verify', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`snapshot ${id}: `);
  });

  it('when the root holds no snapshot then it says so with exit 66', async () => {
    const r = await runCli(['verify', tempDir()]);
    expect(r.code).toBe(66);
    expect(r.stderr).toMatch(/no snapshot is published/);
  });
});

const plan = swiftPlan();
if (plan.unavailable) console.warn(`verify-packed.test.ts: ${plan.unavailable}`);
const s3Suite = plan.unavailable ? describe.skip : describe;

s3Suite('catalog verify on a packed snapshot in S3 (OpenStack Swift)', () => {
  const bucket = testBucketName('wt-verify');
  let env: Record<string, string> = {};
  let stop = () => {};
  let client: S3Client;

  beforeAll(async () => {
    const started = await plan.start();
    env = started.env;
    stop = started.stop;
    client = createS3Client(env).client;
    await createTestBucket(client, bucket);
  }, 60_000);

  afterAll(async () => {
    if (client) {
      await removeBucket(client, bucket);
      client.destroy();
    }
    stop();
  }, 60_000);

  storeSuite(async (root, name) => {
    const store = createS3BlobStore({ bucket, prefix: `${name}/`, env });
    try {
      await uploadRoot(root, store);
    } finally {
      await store.close();
    }
    return `s3://${bucket}/${name}`;
  }, () => env);

  it('when the prefix holds no snapshot then it says so with exit 66', async () => {
    const r = await runCli(['verify', `s3://${bucket}/nothing-here`], { env });
    expect(r.code, r.stderr).toBe(66);
    expect(r.stderr).toContain(`no snapshot is published under s3://${bucket}/nothing-here`);
  });
});
