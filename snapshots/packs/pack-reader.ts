/**
 * Reads objects out of pack files by (pack, offset, length): one positioned read (`pread`) on a pack
 * kept open, never the whole pack. Open descriptors are bounded (least recently used closed first),
 * so memory and descriptors do not grow with the catalog.
 *
 * Synchronous on purpose, like the per-file reader it replaces (store/fs.ts): an object is 1-50 KB
 * served from the page cache, and one pread costs microseconds, less than a thread-pool round trip.
 *
 * @example
 *   const packs = createPackReader({ dir: 'data/snapshots/packs' });
 *   packs.read('9f…', 4096, 1190)   // the 1190 stored bytes of one object
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { CatalogError } from '../errors.js';
import { packFileName } from './pack-writer.js';

export interface PackReader {
  read(sha256: string, offset: number, length: number): Buffer;
  /** `read` into `into` at `at` (a buffer the caller re-uses): no new buffer per read. */
  readInto(sha256: string, offset: number, length: number, into: Buffer, at: number): void;
  close(): void;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

export function isPackHash(value: string): boolean {
  return SHA256_HEX.test(value);
}

export function createPackReader(options: { dir: string; maxOpen?: number }): PackReader {
  const maxOpen = options.maxOpen ?? 64;
  if (!Number.isInteger(maxOpen) || maxOpen < 1) throw new CatalogError('usage', `maxOpen must be a positive integer, not ${maxOpen}`);
  // Map iteration order is insertion order: re-inserting on use makes the first entry the least recent.
  const fds = new Map<string, number>();

  const fdOf = (sha256: string): number => {
    const known = fds.get(sha256);
    if (known !== undefined) {
      fds.delete(sha256);
      fds.set(sha256, known);
      return known;
    }
    // The hash comes from the snapshot's own index, but it still becomes a path: check its shape.
    if (!isPackHash(sha256)) throw new CatalogError('corrupt_object', `the index names a pack that is not a SHA-256: ${JSON.stringify(sha256.slice(0, 80))}`);
    let fd: number;
    try {
      fd = openSync(join(options.dir, packFileName(sha256)), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new CatalogError('corrupt_object', `pack ${sha256} is missing from ${options.dir}; run \`catalog verify\` on the snapshot root`);
      }
      throw err;
    }
    if (fds.size >= maxOpen) {
      const [oldest, oldFd] = fds.entries().next().value as [string, number];
      fds.delete(oldest);
      closeSync(oldFd);
    }
    fds.set(sha256, fd);
    return fd;
  };

  const readAt = (sha256: string, offset: number, length: number, into: Buffer, at: number): void => {
    const fd = fdOf(sha256);
    let done = 0;
    while (done < length) {
      const n = readSync(fd, into, at + done, length - done, offset + done);
      if (n === 0) throw new CatalogError('corrupt_object', `pack ${sha256} ends before byte ${offset + length} (an object at ${offset}, ${length} bytes)`);
      done += n;
    }
  };

  return {
    read(sha256, offset, length) {
      const out = Buffer.allocUnsafe(length);
      readAt(sha256, offset, length, out, 0);
      return out;
    },
    readInto: readAt,
    close() {
      for (const fd of fds.values()) closeSync(fd);
      fds.clear();
    },
  };
}
