/**
 * Reads objects of a pinned snapshot through the byte-bounded cache. The SHA-256 (the ETag) is
 * computed once, when an object enters the cache. Misses are not cached: snapshots are immutable so
 * it would be correct, but a 404 is one cheap stat to re-check, and caching misses would let anyone
 * fill the cache with ids that do not exist. Concurrent requests for one object share one read.
 *
 * Every object read from the store is checked to be one complete gzip stream (gunzip checks its
 * CRC-32 and length trailer) before it is cached or a byte of it is sent: a truncated or corrupted
 * file becomes a 500 whose log line names the key (code `corrupt_object`), not a 200 whose body
 * passes through intact-looking and fails in the client's gunzip. The check runs once per cache
 * fill; `catalog verify` finds the same files by their manifest hash.
 */
import { CatalogError } from '../../snapshots/errors.js';
import { gunzip, sha256Hex } from '../../snapshots/codec.js';
import type { SnapshotReader } from '../../snapshots/store/types.js';
import type { ObjectCache } from './object-cache.js';

/** Objects at most this big (gzip) are decoded in one call and keep their decoded bytes; larger ones are streamed through gunzip. */
export const SMALL_OBJECT_BYTES = 16 * 1024;

export interface ServedObject {
  readonly gzip: Buffer;
  /** SHA-256 hex of `gzip`: the manifest hash and the ETag. */
  readonly sha256: string;
  readonly cacheKey: string;
  /** Decoded bytes of a small object, attached the first time an identity response needs them. */
  identity?: Buffer;
  /** Item count of the whole list, for a list page (read once, then kept with the object). */
  total?: number;
}

export interface ObjectLoader {
  load(reader: SnapshotReader, key: string): Promise<ServedObject | null>;
  /** A cached object built by the server itself (a re-sliced list page), by its cache key. */
  lookup(cacheKey: string): ServedObject | undefined;
  /** Wraps bytes the server produced and caches them under `cacheKey`. */
  remember(cacheKey: string, gzip: Buffer, total?: number): ServedObject;
  /** Decoded bytes of a small object (kept with it), or null when the object should be streamed. */
  smallIdentity(obj: ServedObject): Buffer | null;
  readonly cache: ObjectCache<ServedObject>;
}

export const objectCacheKey = (snapshotId: string, key: string) => `${snapshotId}\u0000${key}`;

export function createObjectLoader(cache: ObjectCache<ServedObject>): ObjectLoader {
  const inflight = new Map<string, Promise<ServedObject | null>>();

  const remember = (cacheKey: string, gzip: Buffer, total?: number): ServedObject => {
    const obj: ServedObject = { gzip, sha256: sha256Hex(gzip), cacheKey, total };
    cache.set(cacheKey, obj, gzip.length);
    return obj;
  };

  return {
    async load(reader, key) {
      const cacheKey = objectCacheKey(reader.id, key);
      const hit = cache.get(cacheKey);
      if (hit) return hit;
      const pending = inflight.get(cacheKey);
      if (pending) return pending;
      const read = (async () => {
        try {
          const bytes = await reader.get(key);
          if (bytes === null) return null;
          checkGzip(bytes, reader.id, key);
          return remember(cacheKey, bytes);
        } finally {
          inflight.delete(cacheKey);
        }
      })();
      inflight.set(cacheKey, read);
      return read;
    },
    lookup(cacheKey) {
      return cache.get(cacheKey);
    },
    remember,
    smallIdentity(obj) {
      if (obj.identity) return obj.identity;
      if (obj.gzip.length > SMALL_OBJECT_BYTES) return null;
      obj.identity = gunzip(obj.gzip);
      cache.resize(obj.cacheKey, obj.gzip.length + obj.identity.length);
      return obj.identity;
    },
    cache,
  };
}

/** Throws `corrupt_object` naming the key when `bytes` is not one complete, intact gzip stream. */
export function checkGzip(bytes: Buffer, snapshotId: string, key: string): void {
  try {
    gunzip(bytes);
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new CatalogError('corrupt_object', `object ${key} of snapshot ${snapshotId} is not a complete gzip stream (${reason}); run catalog verify`, { key, snapshotId }, { cause: err });
  }
}
