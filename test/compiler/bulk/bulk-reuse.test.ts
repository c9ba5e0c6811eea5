/**
 * An incremental compile builds a bulk file from the previous snapshot's file and the objects and
 * gets the same bytes as a build from the objects alone (an object not in the new folder yet is read
 * from the previous one, checked against its digest); a previous file that is damaged, truncated or
 * gone is never trusted.
 */
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { buildBulkFile, documentJob } from '../../../compiler/bulk/write-bulk.js';
import type { BulkFile, ManifestEntry } from '../../../snapshots/manifest.js';
import { sha256Hex } from '../../../snapshots/codec.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'bulk-reuse-'));
  dirs.push(d);
  return d;
};

/** Writes card objects (id -> price) into `dir`; `skip` ids get a manifest entry but no file. */
function writeCards(dir: string, cards: Record<string, number>, skip: string[] = []): ManifestEntry[] {
  return Object.entries(cards).map(([id, price]) => {
    const key = `v1/cards/${id}/30d.json.gz`;
    const json = `{"apiVersion":"v1","asOf":"2026-11-20T00:00:00.000Z","data":{"id":"${id}","marketCents":${price}},"kind":"card","schemaVersion":1,"warnings":[]}`;
    const bytes = gzipSync(json);
    if (!skip.includes(id)) {
      mkdirSync(join(dir, 'v1/cards', id), { recursive: true });
      writeFileSync(join(dir, key), bytes);
    }
    return { key, size: bytes.length, sha256: sha256Hex(bytes), input: null };
  });
}

const objectsOf = (entries: ManifestEntry[]) => new Map(entries.map((e) => [e.key, { sha256: e.sha256 }]));
const before: Record<string, number> = { 'a-1': 100, 'b-2': 200, 'c-3': 300, 'd-4': 400 };
// b-2 changed, c-3 removed, e-5 new; a-1 and d-4 unchanged.
const after: Record<string, number> = { 'a-1': 100, 'b-2': 250, 'd-4': 400, 'e-5': 500 };

async function previousSnapshot(): Promise<{ dir: string; entries: ManifestEntry[]; file: BulkFile }> {
  const dir = tmp();
  const entries = writeCards(dir, before);
  const file = await buildBulkFile(documentJob('cards', entries), dir, null, new Map());
  return { dir, entries, file };
}

async function freshBuild(): Promise<Buffer> {
  const dir = tmp();
  const entries = writeCards(dir, after);
  const file = await buildBulkFile(documentJob('cards', entries), dir, null, new Map());
  return readFileSync(join(dir, file.file));
}

describe('bulk lines re-used from the previous snapshot', () => {
  it('when only some cards changed then the bytes equal a fresh build, unchanged objects read from the previous folder', async () => {
    const prev = await previousSnapshot();
    const dir = tmp();
    // The unchanged cards' objects are absent here: they are read from the previous folder.
    const entries = writeCards(dir, after, ['a-1', 'd-4']);
    const file = await buildBulkFile(documentJob('cards', entries, objectsOf(prev.entries)), dir, prev.dir, new Map([['cards', prev.file]]));
    expect(readFileSync(join(dir, file.file)).equals(await freshBuild())).toBe(true);
    expect(file.count).toBe(4);
  });

  for (const [what, damage] of [
    ['truncated', (p: string) => writeFileSync(p, readFileSync(p).subarray(0, 20))],
    ['not gzip', (p: string) => writeFileSync(p, 'not a gzip file')],
    ['gone', (p: string) => rmSync(p)],
    ['valid gzip with other content', (p: string) => writeFileSync(p, gzipSync('{"id":"x"}\n{"id":"y"}\n{"id":"z"}\n{"id":"w"}\n'))],
  ] as const) {
    it(`when the previous file is ${what} then it is not trusted and the file is built from the objects`, async () => {
      const prev = await previousSnapshot();
      damage(join(prev.dir, prev.file.file));
      const dir = tmp();
      const entries = writeCards(dir, after);
      const file = await buildBulkFile(documentJob('cards', entries, objectsOf(prev.entries)), dir, prev.dir, new Map([['cards', prev.file]]));
      expect(readFileSync(join(dir, file.file)).equals(await freshBuild())).toBe(true);
      expect(existsSync(join(dir, `${file.file}.tmp`))).toBe(false);
    });
  }

  it('when the previous file is not trusted and an unchanged object is not linked yet then its bytes come from the previous folder', async () => {
    const prev = await previousSnapshot();
    rmSync(join(prev.dir, prev.file.file));
    const dir = tmp();
    // a-1 and d-4 are unchanged and their links not made yet (the compile's reuse thread is behind).
    const entries = writeCards(dir, after, ['a-1', 'd-4']);
    const file = await buildBulkFile(documentJob('cards', entries, objectsOf(prev.entries)), dir, prev.dir, new Map([['cards', prev.file]]));
    expect(readFileSync(join(dir, file.file)).equals(await freshBuild())).toBe(true);
  });

  it('when an object is missing from the new folder and differs in the previous one then the build fails instead of using it', async () => {
    const prev = await previousSnapshot();
    rmSync(join(prev.dir, prev.file.file));
    const dir = tmp();
    // b-2 changed (250 now, 200 before) and its new object is missing: the previous bytes do not hash to the new entry.
    const entries = writeCards(dir, after, ['b-2']);
    await expect(
      buildBulkFile(documentJob('cards', entries, objectsOf(prev.entries)), dir, prev.dir, new Map([['cards', prev.file]])),
    ).rejects.toThrow(/ENOENT.*b-2/);
  });
});
