/**
 * Operating-system errors an operator can act on, turned into `io` errors that say what to do
 * (exit 74) instead of an "unexpected failure" (exit 70). A compile that runs out of disk space or
 * of inodes part-way is the usual one: the snapshot folder is removed and nothing is published,
 * and the operator needs to know it is the disk, not a bug.
 *
 * @example
 *   systemError(Object.assign(new Error('ENOSPC: no space left on device, mkdir'), { code: 'ENOSPC', path: '/srv/snap/x' }))
 *   // CatalogError io: 'no space left on the device at /srv/snap/x (disk or inodes full: check df -h and df -i); free some space and run the command again'
 */
import { CatalogError } from '../snapshots/errors.js';

const ADVICE: Record<string, string> = {
  ENOSPC: 'no space left on the device{at} (disk or inodes full: check df -h and df -i); free some space and run the command again',
  EDQUOT: 'disk quota exceeded{at}; free some space or raise the quota and run the command again',
  EACCES: 'permission denied{at}; run as a user that may write there, or choose another folder',
  EPERM: 'operation not permitted{at}; run as a user that may write there, or choose another folder',
  EROFS: 'read-only file system{at}; choose a folder on a writable file system',
  EMFILE: 'too many open files; raise the limit (ulimit -n) and run the command again',
  ENFILE: 'too many open files on the system; run the command again when fewer are open',
};

/** The `io` CatalogError for an actionable system error, or null for anything else. */
export function systemError(err: unknown): CatalogError | null {
  const e = err as NodeJS.ErrnoException | null;
  const code = typeof e?.code === 'string' ? e.code : null;
  if (code === null || !(code in ADVICE)) return null;
  const at = typeof e?.path === 'string' ? ` at ${e.path}` : '';
  return new CatalogError('io', ADVICE[code].replace('{at}', at), { code, ...(at ? { path: e!.path } : {}) }, { cause: err });
}
