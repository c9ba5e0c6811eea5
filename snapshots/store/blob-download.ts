/**
 * Copies one object of a BlobStore to a local file, a range at a time (memory stays at one chunk
 * whatever the size: an object index is ~600 MiB at a million cards), checked against the size and
 * SHA-256 its manifest gives before it is used: written under a temporary name in the same folder
 * and renamed only once complete and correct, so a reader never opens a half-written or wrong file.
 *
 * @example
 *   await downloadChecked(store, '20261122T020000Z-1a2b3c4d/objects.sqlite', '/var/cache/catalog/…/objects.sqlite',
 *     { size: 1234567, sha256: '9f…' });
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CatalogError } from '../errors.js';
import type { BlobStore } from './blob-store.js';

/** Bytes per ranged GET when copying or streaming a large object. */
export const DOWNLOAD_CHUNK_BYTES = 8 * 1024 * 1024;

export interface Expected {
  size: number;
  sha256: string;
}

/** SHA-256 of a local file, or null when there is no such file of `size` bytes. */
async function localHash(path: string, size: number): Promise<string | null> {
  const s = await stat(path).catch(() => null);
  if (s === null || !s.isFile() || s.size !== size) return null;
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Makes `path` hold exactly the object `key` as `expected` describes it. A file already there with
 * the right size and hash (kept from an earlier run, or written by another worker) is used as it is.
 */
export async function downloadChecked(store: BlobStore, key: string, path: string, expected: Expected, chunkBytes = DOWNLOAD_CHUNK_BYTES): Promise<void> {
  if ((await localHash(path, expected.size)) === expected.sha256) return;
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.partial`);
  const hash = createHash('sha256');
  const file = await open(temp, 'w');
  try {
    for (let offset = 0; offset < expected.size; ) {
      const length = Math.min(chunkBytes, expected.size - offset);
      const bytes = await store.getRange(key, offset, length).catch((err: unknown) => {
        if (err instanceof CatalogError && err.code === 'range_not_satisfiable') return 'short' as const;
        throw err;
      });
      if (bytes === null) throw corrupt(store, key, 'it is missing');
      if (bytes === 'short') throw corrupt(store, key, `it is shorter than the ${expected.size} bytes its manifest says`);
      hash.update(bytes);
      await file.write(bytes, 0, bytes.length, offset);
      offset += bytes.length;
    }
    const got = (await store.head(key))?.size;
    if (got !== expected.size) throw corrupt(store, key, `it is ${got ?? 'no longer'} bytes, not the ${expected.size} its manifest says`);
    const sha256 = hash.digest('hex');
    if (sha256 !== expected.sha256) throw corrupt(store, key, `its SHA-256 is ${sha256}, not the ${expected.sha256} its manifest says`);
    await file.close();
    await rename(temp, path);
  } catch (err) {
    await file.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw err;
  }
}

function corrupt(store: BlobStore, key: string, why: string): CatalogError {
  return new CatalogError('corrupt_object', `${store.location}: ${key}: ${why}; run catalog verify on the snapshot root`, { key });
}
