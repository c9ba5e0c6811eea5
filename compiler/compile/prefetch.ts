/**
 * Copies of the previous snapshot's files that an incremental compile starts from (its object index,
 * its search index), made in the background before they are needed. Copied when needed, on the
 * main thread, a million-card object index (1.08 GB) and search index held the compile up 2.5-5.7 s;
 * started early, the copy runs on libuv's thread while the main thread reads the catalog or streams
 * the prices (docs/benchmarks.md, "Incremental compile: waiting less").
 *
 * The copies go into a folder of the output root (`.compile-prefetch`, not a snapshot id, so no
 * reader lists it) and are moved into the new snapshot's folder by `take`. Only a compile holding the
 * root's lock uses it: each one empties it first (a compile killed mid-copy leaves one behind) and
 * removes it at the end, after waiting for any copy it did not take.
 *
 * @example
 *   const prefetch = startPrefetch(root);
 *   prefetch.start('objects', previous.index);
 *   ...
 *   await prefetch.take('objects', join(dir, 'objects.sqlite'));   // false: not started, copy it now
 *   await prefetch.close();
 */
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { constants, rmSync } from 'node:fs';
import { join } from 'node:path';

export const PREFETCH_DIR = '.compile-prefetch';

export interface Prefetch {
  /** Starts copying `from` in the background, under `name`. */
  start(name: string, from: string): void;
  /**
   * Waits for the copy started under `name` and moves it to `to`; false when none was started (the
   * caller copies the file itself). A copy that failed throws its error here.
   */
  take(name: string, to: string): Promise<boolean>;
  /** Waits for the copies not taken, then removes them and the folder. Never throws. */
  close(): Promise<void>;
}

export function startPrefetch(root: string): Prefetch {
  const dir = join(root, PREFETCH_DIR);
  // Left by a compile that was killed: nothing reads it.
  rmSync(dir, { recursive: true, force: true });
  let made: Promise<void> | null = null;
  const copies = new Map<string, { path: string; done: Promise<unknown> }>();
  return {
    start(name, from) {
      if (copies.has(name)) throw new Error(`prefetch: ${name} started twice`);
      made ??= mkdir(dir, { recursive: true }).then(() => undefined);
      const path = join(dir, name);
      // A reflink where the filesystem has them (XFS, btrfs): the copy shares the blocks until the
      // compile changes its pages, and costs no time; elsewhere an ordinary copy (libuv falls back).
      const done = made.then(() => copyFile(from, path, constants.COPYFILE_FICLONE));
      // Handled by take (rethrown) or close (ignored): never an unhandled rejection meanwhile.
      done.catch(() => undefined);
      copies.set(name, { path, done });
    },
    async take(name, to) {
      const copy = copies.get(name);
      if (copy === undefined) return false;
      copies.delete(name);
      await copy.done;
      await rename(copy.path, to);
      return true;
    },
    async close() {
      await Promise.all([...copies.values()].map((c) => c.done.catch(() => undefined)));
      copies.clear();
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}
