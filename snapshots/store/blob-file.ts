/**
 * A snapshot file (bulk file, manifest signature, change list) read from a BlobStore by byte range:
 * `stream(start, end)` fetches one chunk at a time, only when the reader asks for more (a paused
 * client pauses the GETs), so memory stays at one chunk per download whatever the file size, and a
 * resumed bulk download (`Range`) fetches only the bytes it asks for.
 *
 * @example
 *   const file = blobFile(store, '20261122T020000Z-1a2b3c4d/bulk/cards.ndjson.gz', 1843211);
 *   file.stream(1000, 1843210).pipe(res);
 */
import { Readable } from 'node:stream';
import { CatalogError } from '../errors.js';
import type { BlobStore } from './blob-store.js';
import type { SnapshotFile } from './types.js';

/** Smaller than a download's chunk: a client reading a bulk file holds this much per connection. */
export const STREAM_CHUNK_BYTES = 1024 * 1024;

export function blobFile(store: BlobStore, key: string, size: number, chunkBytes = STREAM_CHUNK_BYTES): SnapshotFile {
  const read = async (offset: number, length: number): Promise<Buffer> => {
    const bytes = await store.getRange(key, offset, length);
    if (bytes === null) throw new CatalogError('corrupt_object', `${store.location}: ${key} is gone from the store while being read; run catalog verify`, { key });
    return bytes;
  };
  return {
    size,
    // Published snapshot files never change: the size is all a cache of derived facts needs.
    version: `${size}`,
    stream(start, end) {
      let next = start;
      return new Readable({
        highWaterMark: chunkBytes,
        async read() {
          if (next > end) {
            this.push(null);
            return;
          }
          const length = Math.min(chunkBytes, end - next + 1);
          try {
            const bytes = await read(next, length);
            next += length;
            this.push(bytes);
          } catch (err) {
            this.destroy(err as Error);
          }
        },
      });
    },
    async bytes() {
      return size === 0 ? Buffer.alloc(0) : read(0, size);
    },
  };
}
