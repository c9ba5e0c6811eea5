/**
 * The links of unchanged objects, made on the reuse thread (the compiled module in dist/, where
 * reuse-worker.js exists) and inline (the TypeScript source here, where it does not): every key
 * ends up a hard link of the previous snapshot's object once drain() resolves, and a link that
 * cannot be made fails drain() naming the object instead of hanging or crashing.
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createReuseQueue as createInline } from '../../../compiler/compile/reuse-queue.js';
import { createFsSnapshotWriter } from '../../../snapshots/store/fs.js';

const REPO = join(import.meta.dirname, '../../..');
type Create = typeof createInline;
const threaded = async (): Promise<Create> =>
  ((await import(pathToFileURL(join(REPO, 'dist/compiler/compile/reuse-queue.js')).href)) as { createReuseQueue: Create }).createReuseQueue;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A previous snapshot folder with `cards` card folders of five objects each, under a fresh root. */
function previousSnapshot(cards: number): { root: string; previousDir: string; keys: string[][] } {
  const root = mkdtempSync(join(tmpdir(), 'reuse-'));
  dirs.push(root);
  const previousDir = join(root, '20261101T000000Z-00000000');
  const keys: string[][] = [];
  for (let i = 0; i < cards; i++) {
    const folder = `v1/cards/c-${i}`;
    mkdirSync(join(previousDir, folder), { recursive: true });
    const group = ['30d', '3mo', '6mo', '12mo', 'all'].map((r) => `${folder}/${r}.json.gz`);
    for (const k of group) writeFileSync(join(previousDir, k), `object ${k}`);
    keys.push(group);
  }
  return { root, previousDir, keys };
}

for (const [mode, thread] of [['on the reuse thread', true], ['inline', false]] as const) {
  describe(`re-used objects ${mode}`, () => {
    it('when drain resolves then every pushed key is a hard link of the previous object', async () => {
      const create = thread ? await threaded() : createInline;
      // More keys than one batch and more batches than the thread queues, so ready() has to wait.
      const { root, previousDir, keys } = previousSnapshot(2000);
      const writer = createFsSnapshotWriter(root, '20261102T000000Z-00000000');
      const reuse = create(root, writer, { thread });
      try {
        for (const group of keys) {
          reuse.push(previousDir, group);
          await reuse.ready();
        }
        await reuse.drain();
      } finally {
        await reuse.close();
      }
      for (const k of keys.flat()) {
        const now = statSync(join(writer.dir, k));
        expect(now.ino).toBe(statSync(join(previousDir, k)).ino);
        expect(readFileSync(join(writer.dir, k), 'utf8')).toBe(`object ${k}`);
      }
    });

    it('when a previous object is missing then drain rejects naming it, and nothing hangs', async () => {
      const create = thread ? await threaded() : createInline;
      const { root, previousDir, keys } = previousSnapshot(3);
      rmSync(join(previousDir, keys[1][2]));
      const writer = createFsSnapshotWriter(root, '20261102T000000Z-00000000');
      const reuse = create(root, writer, { thread });
      try {
        const run = async () => {
          for (const group of keys) reuse.push(previousDir, group);
          await reuse.drain();
        };
        await expect(run()).rejects.toThrow(/c-1\/6mo\.json\.gz/);
        // Once failed, the queue says so to every later caller instead of waiting forever.
        await expect(reuse.ready()).rejects.toThrow(/c-1\/6mo\.json\.gz/);
      } finally {
        await reuse.close();
      }
    });
  });
}
