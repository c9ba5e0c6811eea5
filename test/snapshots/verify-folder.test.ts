/**
 * verifySnapshotFolder on hand-made folders: the hash check, and the files on disk that the manifest
 * does not list, found by merging the sorted manifest with a sorted walk (and by a set of keys when
 * the manifest is out of order). Names are chosen where folder order and full-path order could part:
 * `a-b/` sorts before `a/` ('-' < '/'), `a.json` before `a/` ('.' < '/'), `a0/` after `a/`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../snapshots/codec.js';
import { MANIFEST_FILE } from '../../snapshots/keys.js';
import { manifestLines, MANIFEST_FORMAT, MANIFEST_VERSION, type ManifestEntry } from '../../snapshots/manifest.js';
import { verifySnapshotFolder } from '../../snapshots/store/verify-folder.js';
import { tempDir } from '../helpers/cli.js';

const ID = '20261124T000000Z-0a1b2c3d';

const LISTED = [
  'v1/cards/a-b/30d.json.gz',
  'v1/cards/a.json.gz',
  'v1/cards/a/30d.json.gz',
  'v1/cards/a/all.json.gz',
  'v1/cards/a0/30d.json.gz',
  'v1/sets/mtg/abc/page-1.json.gz',
];

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

/** A snapshot folder holding `files`, with a manifest listing `listed` (in the order given). */
function folder(files: string[], listed: string[]): string {
  const root = tempDir();
  const dir = join(root, ID);
  const bytesOf = (key: string) => Buffer.from(`object ${key}`);
  for (const key of files) {
    mkdirSync(dirname(join(dir, key)), { recursive: true });
    writeFileSync(join(dir, key), bytesOf(key));
  }
  const entries: ManifestEntry[] = listed.map((key) => ({ key, size: bytesOf(key).length, sha256: sha256Hex(bytesOf(key)), input: null }));
  const header = {
    format: MANIFEST_FORMAT, version: MANIFEST_VERSION, snapshotId: ID, asOf: null, objects: entries.length,
    previous: null, counts: { new: entries.length, changed: 0, unchanged: 0, removed: 0 },
  } as const;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, MANIFEST_FILE), [...manifestLines(header, entries)].join(''));
  return dir;
}

describe('verifySnapshotFolder', () => {
  it('when every listed object is there and nothing else then there are no problems', async () => {
    const r = await verifySnapshotFolder(folder(LISTED, LISTED));
    expect(r.problems).toEqual([]);
    expect(r.checked).toBe(LISTED.length);
  });

  const strays = ['v1/aaa.json.gz', 'v1/cards/a-a/30d.json.gz', 'v1/cards/a/3mo.json.gz', 'v1/cards/a/x/deep.json.gz', 'v1/cards/a00.json.gz', 'v1/zzz/z.json.gz'];

  it('when files the manifest does not list lie before, between, inside and after listed ones then each is named once', async () => {
    const r = await verifySnapshotFolder(folder([...LISTED, ...strays], LISTED));
    expect(r.problems).toEqual([...strays].sort().map((k) => `${k}: on disk but not in the manifest`));
  });

  it('when the manifest is out of order then the same strays are found (by a set of its keys)', async () => {
    const shuffled = [LISTED[3], LISTED[0], LISTED[5], LISTED[1], LISTED[4], LISTED[2]];
    const r = await verifySnapshotFolder(folder([...LISTED, ...strays], shuffled));
    expect(r.problems).toEqual([...strays].sort().map((k) => `${k}: on disk but not in the manifest`));
  });

  it('when listed objects are missing then they are reported missing, not as strays, and a stray after them is still found', async () => {
    const present = LISTED.filter((k) => k !== 'v1/cards/a/30d.json.gz' && k !== 'v1/cards/a-b/30d.json.gz');
    const r = await verifySnapshotFolder(folder([...present, 'v1/cards/a/b.json.gz'], LISTED));
    expect(r.problems).toEqual([
      'v1/cards/a-b/30d.json.gz: missing',
      'v1/cards/a/30d.json.gz: missing',
      'v1/cards/a/b.json.gz: on disk but not in the manifest',
    ]);
  });

  it('when a key is listed twice then it says so', async () => {
    const r = await verifySnapshotFolder(folder(LISTED, [...LISTED.slice(0, 3), LISTED[2], ...LISTED.slice(3)]));
    expect(r.problems).toContain('v1/cards/a/30d.json.gz: listed twice in the manifest');
  });

  it('hashes more objects than its window holds (the manifest is read as checks finish)', async () => {
    const many = Array.from({ length: 2_500 }, (_, i) => `v1/cards/c${String(i).padStart(5, '0')}/30d.json.gz`);
    const dir = folder([...many, 'v1/cards/c01000/stray.json.gz'], many);
    const r = await verifySnapshotFolder(dir);
    expect(r.checked).toBe(2_500);
    expect(r.problems).toEqual(['v1/cards/c01000/stray.json.gz: on disk but not in the manifest']);
  });
});
