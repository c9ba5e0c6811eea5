/**
 * The bulk files built on the worker thread (the compiled module in dist/, where bulk-worker.js
 * exists) and on the calling thread (the TypeScript source here, where it does not) give the same
 * bytes, and a failing job fails finish() with the reason instead of crashing or hanging.
 */
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { startBulkFiles as startInline } from '../../../compiler/bulk/background-bulk.js';
import { changeLine, changesFileJob, documentJob, type BulkJob } from '../../../compiler/bulk/write-bulk.js';
import { sha256Hex } from '../../../snapshots/codec.js';

const REPO = join(import.meta.dirname, '../../..');
type Start = typeof startInline;
const threaded = async (): Promise<Start> =>
  ((await import(pathToFileURL(join(REPO, 'dist/compiler/bulk/background-bulk.js')).href)) as { startBulkFiles: Start }).startBulkFiles;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function snapshotWithCards(ids: string[]): { dir: string; jobs: BulkJob[] } {
  const dir = mkdtempSync(join(tmpdir(), 'bulk-'));
  dirs.push(dir);
  const entries = ids.map((id) => {
    const key = `v1/cards/${id}/30d.json.gz`;
    const json = `{"apiVersion":"v1","asOf":"2026-11-20T00:00:00.000Z","data":{"id":"${id}"},"kind":"card","schemaVersion":1,"warnings":[]}`;
    const bytes = gzipSync(json);
    mkdirSync(join(dir, 'v1/cards', id), { recursive: true });
    writeFileSync(join(dir, key), bytes);
    return { key, size: bytes.length, sha256: sha256Hex(bytes), input: null };
  });
  const changes = join(dir, 'changes.ndjson');
  writeFileSync(changes, changeLine({ key: entries[0].key, change: 'new' }));
  return { dir, jobs: [documentJob('cards', entries.reverse()), changesFileJob(changes, { input: 'x', count: 1 })] };
}

describe('bulk files off the main thread', () => {
  for (const [name, start] of [['worker thread', threaded], ['calling thread', async () => startInline]] as const) {
    it(`when jobs are built on the ${name} then the files hold the data lines in key order and their hashes`, async () => {
      const { dir, jobs } = snapshotWithCards(['b-2', 'a-1']);
      const bulk = (await start())({ dir, previousDir: null });
      for (const j of jobs) bulk.submit(j);
      const files = await bulk.finish();
      expect(files.map((f) => f.name)).toEqual(['cards', 'changes']);
      const cards = readFileSync(join(dir, files[0].file));
      expect(gunzipSync(cards).toString()).toBe('{"id":"a-1"}\n{"id":"b-2"}\n');
      expect(files[0]).toMatchObject({ count: 2, size: cards.length, sha256: sha256Hex(cards) });
    });

    it(`when a job names an object that is missing on the ${name} then finish rejects naming the file and leaves no partial file`, async () => {
      const { dir, jobs } = snapshotWithCards(['a-1']);
      rmSync(join(dir, 'v1/cards/a-1/30d.json.gz'));
      const bulk = (await start())({ dir, previousDir: null });
      bulk.submit(jobs[0]);
      await expect(bulk.finish()).rejects.toThrow(/a-1\/30d\.json\.gz/);
      expect(existsSync(join(dir, 'bulk/cards.ndjson.gz.tmp')), 'no partial file is left').toBe(false);
    });
  }

  it('when the same jobs run on both threads then the bytes are identical', async () => {
    const a = snapshotWithCards(['x-1', 'y-2', 'z-3']);
    const b = snapshotWithCards(['x-1', 'y-2', 'z-3']);
    const one = (await threaded())({ dir: a.dir, previousDir: null });
    const two = startInline({ dir: b.dir, previousDir: null });
    for (const j of a.jobs) one.submit(j);
    for (const j of b.jobs) two.submit(j);
    expect(await one.finish()).toEqual(await two.finish());
  });
});
