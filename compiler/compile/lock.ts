/**
 * One compile at a time per snapshot root. Two compiles into the same root would each treat the
 * other's half-written folder as debris of a crashed run and prune it, and both would move
 * `current`. The lock is a file created with O_EXCL holding the owner's pid; a lock whose process
 * is gone (a compile killed with SIGKILL) is stale and taken over, so a crash never blocks the next
 * nightly run.
 *
 * @example
 *   const lock = acquireCompileLock('data/snapshots');   // throws `locked` while another compile runs
 *   try { ... } finally { lock.release(); }
 */
import { openSync, readFileSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { CatalogError } from '../../snapshots/errors.js';

export const COMPILE_LOCK_FILE = '.compile.lock';

export interface CompileLock {
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ownerOf(path: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

export function acquireCompileLock(root: string, pid: number = process.pid): CompileLock {
  const path = join(root, COMPILE_LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = ownerOf(path);
      if (owner !== null && owner !== pid && alive(owner)) {
        throw new CatalogError('locked', `another compile (pid ${owner}) is writing to ${root}; wait for it to finish, or remove ${path} if that process is not a compile`, { owner });
      }
      // Stale (its process is gone) or unreadable: take it over.
      unlinkSync(path);
      continue;
    }
    writeSync(fd, `${pid}\n`);
    closeSync(fd);
    return {
      release() {
        if (ownerOf(path) === pid) unlinkSync(path);
      },
    };
  }
  throw new CatalogError('locked', `could not take the compile lock ${path}; another compile is starting`);
}
