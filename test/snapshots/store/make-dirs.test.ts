/**
 * makeDirs / makeDirsSync: `mkdir -p` that ends with a clear error where Node's recursive mkdir
 * spins forever (a parent that exists but refuses new children, as /proc does on Linux).
 */
import { describe, expect, it } from 'vitest';
import { existsSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirs, makeDirsSync } from '../../../snapshots/store/make-dirs.js';
import { isCatalogError } from '../../../snapshots/errors.js';
import { tempDir } from '../../helpers/cli.js';

const hasProc = existsSync('/proc/self');
if (!hasProc) console.warn('make-dirs: no /proc on this system; the procfs cases are skipped');

const variants = [
  ['makeDirsSync', async (p: string) => makeDirsSync(p)],
  ['makeDirs', makeDirs],
] as const;

describe.each(variants)('%s', (_name, make) => {
  it('creates every missing folder of a path, and accepts folders that exist (or links to them)', async () => {
    const root = tempDir();
    const deep = join(root, 'a', 'b', 'c');
    await make(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    await make(deep);
    await make(join(root, 'a'));
    symlinkSync(join(root, 'a'), join(root, 'link'));
    await make(join(root, 'link', 'b', 'd'));
    expect(statSync(join(root, 'a', 'b', 'd')).isDirectory()).toBe(true);
  });

  it('when a file is in the way (the folder itself or a parent) then it throws an io error naming that file', async () => {
    const root = tempDir();
    const file = join(root, 'file');
    writeFileSync(file, 'x');
    await expect(make(file)).rejects.toMatchObject({
      code: 'io',
      message: `cannot create the folder ${file}: ${file} is a file, not a folder; choose another folder`,
    });
    const deeper = join(file, 'sub', 'deeper');
    await expect(make(deeper)).rejects.toMatchObject({
      code: 'io',
      message: `cannot create the folder ${deeper}: ${file} is a file, not a folder; choose another folder`,
    });
  });

  it.skipIf(!hasProc)('when the parent exists but refuses new folders (/proc) then it fails at once with an io error naming the folder', async () => {
    const target = `/proc/catalog-make-dirs-${process.pid}/deeper`;
    const err = await make(target).then(() => null, (e: unknown) => e);
    expect(isCatalogError(err)).toBe(true);
    expect(err).toMatchObject({ code: 'io' });
    expect((err as Error).message).toBe(
      `cannot create the folder /proc/catalog-make-dirs-${process.pid}: /proc exists but does not accept new folders (a virtual file system such as /proc?); choose a folder on a disk`,
    );
  });
});
