/**
 * One large file of a snapshot (a bulk file, a pack, the object or search index) brought into the
 * mirror with its signed size and SHA-256 checked: downloaded into a part file that survives an
 * interrupted run (the next run resumes it with `Range` + `If-Range`), and renamed to its real name
 * only once its hash matches. A part file of other bytes is dropped and fetched once more from zero.
 *
 * @example
 *   await fetchVerified(client, '/v1/snapshot/packs/9f…?snapshot=…', { path: 'm/packs/9f….pack', part: 'm/.partial/packs/9f….pack.part' },
 *     { sha256: '9f…', size: 1048576 }, 'pack 9f…');
 */
import { rename, rm, stat, writeFile } from 'node:fs/promises';
import { CatalogError } from '../snapshots/errors.js';
import { hashFile } from '../snapshots/store/verify-folder.js';
import type { MirrorClient } from './client.js';

export interface Expected {
  sha256: string;
  size: number;
}

export async function sizeOf(path: string): Promise<number | null> {
  return (await stat(path).catch(() => null))?.size ?? null;
}

/** True when `path` holds exactly the expected bytes (size first: no hashing of a file of another size). */
export async function holds(path: string, e: Expected): Promise<boolean> {
  if ((await sizeOf(path)) !== e.size) return false;
  return (await hashFile(path))?.sha256 === e.sha256;
}

/** Downloads `url` to `to.path` via `to.part`; returns whether bytes of an earlier run were resumed and the bytes fetched now. */
export async function fetchVerified(client: MirrorClient, url: string, to: { path: string; part: string }, e: Expected, what: string): Promise<{ resumed: boolean; bytes: number }> {
  // An empty file (the change list of a compile where nothing changed) has no bytes to fetch, and the
  // download below treats a missing part file as 0 bytes already there: it is made here, its hash checked like any.
  if (e.size === 0) await writeFile(to.part, '');
  const before = (await sizeOf(to.part)) ?? 0;
  const expected = { etag: `"${e.sha256}"`, size: e.size };
  await client.download(url, to.part, expected);
  let got = await hashFile(to.part);
  let fetched = e.size - Math.min(before, e.size);
  if (got?.sha256 !== e.sha256) {
    // A part file from another version of the file, or bytes changed on the way: once more from zero.
    await rm(to.part, { force: true });
    await client.download(url, to.part, expected);
    got = await hashFile(to.part);
    fetched += e.size;
  }
  if (got?.sha256 !== e.sha256 || got.size !== e.size) {
    await rm(to.part, { force: true });
    throw new CatalogError('verify_failed', `${what}: the download does not match the signed manifest (${got?.size ?? 0} of ${e.size} bytes, sha256 ${e.sha256}); ` +
      'nothing was switched, the mirror still serves its previous snapshot');
  }
  await rename(to.part, to.path);
  return { resumed: before > 0 && before < e.size, bytes: fetched };
}
