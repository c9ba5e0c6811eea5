/**
 * Prepares the output folder: created when missing; a non-empty folder is refused unless forced, so
 * a typo in --out never overwrites someone's data.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CatalogError, isCatalogError } from '../../snapshots/errors.js';
import { META_FILE } from '../../snapshots/records.js';
import { makeDirs } from '../../snapshots/store/make-dirs.js';

export async function prepareOutDir(out: string, force: boolean): Promise<void> {
  const info = await stat(out).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw new CatalogError('io', `cannot read ${out}: ${err.message}`, { path: out }, { cause: err });
  });
  if (info !== null && !info.isDirectory()) throw new CatalogError('usage', `--out ${out} is a file, not a folder`);
  if (info === null) {
    await makeDirs(out).catch((err: Error) => {
      // makeDirs already names the folder and what to do; only a raw system error needs the context.
      throw isCatalogError(err) ? err : new CatalogError('io', `cannot create ${out}: ${err.message}`, { path: out }, { cause: err });
    });
    return;
  }
  const entries = await readdir(out);
  if (entries.length > 0 && !force) {
    throw new CatalogError(
      'usage',
      `${out} is not empty; choose an empty or new folder, or pass --force to overwrite the catalog files in it`,
      { path: out },
    );
  }
  // meta.json is written last; removing it first means a run that dies half-way never leaves a
  // folder that looks complete.
  await rm(join(out, META_FILE), { force: true });
}
