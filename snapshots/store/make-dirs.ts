/**
 * `mkdir -p` that always ends. Node's `mkdir(path, { recursive: true })` (sync and async) spins
 * forever on Linux when a parent exists but answers ENOENT for a new child, as procfs does:
 * `mkdirSync('/proc/x', { recursive: true })` never returns (measured on node 20.20.2; the same
 * loop is described in Kewton/CommandMate#1774). A `--out /proc/...` typo then hangs the CLI at
 * 100% CPU. Here an ENOENT from a folder whose parent was just made or found is final.
 *
 * @example
 *   makeDirsSync('/srv/snapshots/20261124T000000Z-1a2b3c4d/v1/cards/x') // creates what is missing
 *   makeDirsSync('/proc/x')          // throws CatalogError io: cannot create the folder /proc/x: ...
 *   makeDirsSync('/etc/hosts/x')     // throws CatalogError io: ... /etc/hosts is a file, not a folder; ...
 */
import { mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CatalogError } from '../errors.js';

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException | null)?.code;

/** false for a missing path and for one that runs through a file (stat's ENOTDIR). */
const isFile = (path: string) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

function refused(path: string): CatalogError {
  return new CatalogError(
    'io',
    `cannot create the folder ${path}: ${dirname(path)} exists but does not accept new folders (a virtual file system such as /proc?); choose a folder on a disk`,
    { path },
  );
}

/**
 * A file where a folder must be (EEXIST: `path` itself; ENOTDIR: one of its parents) is named in an
 * io error; any other error is passed on as it is (the CLI maps ENOSPC, EACCES and the like).
 */
function fileInTheWay(path: string, code: string | undefined, err: unknown): unknown {
  let file: string | null = code === 'EEXIST' ? path : null;
  if (code === 'ENOTDIR') {
    for (let p = dirname(path); file === null && p !== dirname(p); p = dirname(p)) {
      if (isFile(p)) file = p;
    }
  }
  if (file === null) return err;
  return new CatalogError('io', `cannot create the folder ${path}: ${file} is a file, not a folder; choose another folder`, { path }, { cause: err });
}

/** Creates `path` and any missing parents; an existing folder (or a link to one) is fine. */
export function makeDirsSync(path: string): void {
  if (tryMkdirSync(path)) return;
  const parent = dirname(path);
  if (parent !== path) {
    makeDirsSync(parent);
    if (tryMkdirSync(path)) return;
  }
  // The parent is there now, yet the folder still cannot be made: this ENOENT is final.
  throw refused(path);
}

/** The async twin of makeDirsSync, for code that must not block its event loop. */
export async function makeDirs(path: string): Promise<void> {
  if (await tryMkdir(path)) return;
  const parent = dirname(path);
  if (parent !== path) {
    await makeDirs(parent);
    if (await tryMkdir(path)) return;
  }
  throw refused(path);
}

/** true when `path` is a folder now; false when its parent is missing (ENOENT); throws otherwise. */
function tryMkdirSync(path: string): boolean {
  try {
    mkdirSync(path);
    return true;
  } catch (err) {
    const code = codeOf(err);
    if (code === 'ENOENT') return false;
    if (code === 'EEXIST' && statSync(path).isDirectory()) return true;
    throw fileInTheWay(path, code, err);
  }
}

async function tryMkdir(path: string): Promise<boolean> {
  try {
    await mkdir(path);
    return true;
  } catch (err) {
    const code = codeOf(err);
    if (code === 'ENOENT') return false;
    if (code === 'EEXIST' && (await stat(path)).isDirectory()) return true;
    throw fileInTheWay(path, code, err);
  }
}
