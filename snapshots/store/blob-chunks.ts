/**
 * Reads a whole blob as a sequence of large ranged reads, a few in flight ahead of the consumer: the
 * way `catalog verify` hashes a pack of up to 256 MiB without holding it (one GET per object would
 * be 5 million requests at a million cards; one GET for the whole pack would hold it in memory).
 * On the folder store each range is one positioned read; on S3 one ranged GET, and the read-ahead
 * keeps the connection busy while the previous chunk is hashed.
 *
 * @example
 *   for await (const chunk of blobChunks(store, 'packs/9f….pack', size)) hash.update(chunk.bytes);
 *   const got = await hashBlob(store, '2026…/search.sqlite', size);   // { sha256: '…', size }
 */
import { createHash } from 'node:crypto';
import type { BlobStore } from './blob-store.js';

const MiB = 2 ** 20;
/** Bytes per ranged read: large enough that a GET's latency is small beside its transfer. */
export const CHUNK_BYTES = 8 * MiB;
/** Ranged reads in flight ahead of the one being consumed (memory: (1 + READ_AHEAD) chunks). */
const READ_AHEAD = 2;

export interface BlobChunk {
  /** Where `bytes` start in the blob. */
  offset: number;
  bytes: Buffer;
}

/**
 * The first `size` bytes of `key`, in order, `chunkBytes` at a time. The caller knows `size` (from
 * a head): a blob that is shorter fails its ranged read with `range_not_satisfiable`, and one that
 * has vanished is a null read, reported as an error naming the key.
 */
export async function* blobChunks(store: BlobStore, key: string, size: number, chunkBytes = CHUNK_BYTES): AsyncGenerator<BlobChunk> {
  const inFlight: Promise<BlobChunk>[] = [];
  let next = 0;
  const request = () => {
    const offset = next;
    const length = Math.min(chunkBytes, size - offset);
    next += length;
    const read = store.getRange(key, offset, length).then((bytes) => {
      if (bytes === null) throw new Error(`${key} disappeared while it was read`);
      return { offset, bytes };
    });
    // A read-ahead whose consumer stopped early must not become an unhandled rejection.
    read.catch(() => undefined);
    inFlight.push(read);
  };
  while (next < size && inFlight.length < 1 + READ_AHEAD) request();
  while (inFlight.length > 0) {
    const chunk = await inFlight.shift()!;
    if (next < size) request();
    yield chunk;
  }
}

/** SHA-256 and size of a blob's first `size` bytes, with `onChunk` seeing each chunk (a download). */
export async function hashBlob(
  store: BlobStore,
  key: string,
  size: number,
  onChunk?: (chunk: BlobChunk) => void | Promise<void>,
): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  for await (const chunk of blobChunks(store, key, size)) {
    hash.update(chunk.bytes);
    await onChunk?.(chunk);
  }
  return { sha256: hash.digest('hex'), size };
}
