/**
 * Reads objects of a pinned snapshot through the byte-bounded cache. The SHA-256 (the ETag) is
 * computed once, when an object enters the cache. Misses are not cached: snapshots are immutable so
 * it would be correct, but a 404 is one cheap stat to re-check, and caching misses would let anyone
 * fill the cache with ids that do not exist. Concurrent requests for one object share one read.
 */
import { gunzipSync } from 'node:zlib';
import { sha256Hex } from '../../snapshots/codec.js';
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
          return bytes === null ? null : remember(cacheKey, bytes);
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
      obj.identity = gunzipSync(obj.gzip);
      cache.resize(obj.cacheKey, obj.gzip.length + obj.identity.length);
      return obj.identity;
    },
    cache,
  };
}
