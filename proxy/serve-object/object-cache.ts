/**
 * A least-recently-used cache bounded by bytes, not entries: catalog objects range from a few hundred
 * bytes (a card) to tens of kilobytes (a list page), so an entry count would not bound memory.
 * Entries are keyed by snapshot id + object key; objects of a snapshot that is no longer current
 * simply age out. Map iteration order is insertion order, which gives the LRU order for free.
 *
 * @example
 *   const cache = createObjectCache<Buffer>({ maxBytes: 64 * 1024 * 1024 });
 *   cache.set('20261122T020000Z-1a2b3c4d\0v1/catalog/summary.json.gz', bytes, bytes.length);
 */
import { CatalogError } from '../../snapshots/errors.js';

export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/** Rough per-entry bookkeeping (Map slot, key string, object header) counted against the budget. */
const ENTRY_OVERHEAD = 128;

export interface ObjectCache<V> {
  get(key: string): V | undefined;
  /** Stores `value` as costing `size` bytes (plus overhead); values too big for the budget are not kept. */
  set(key: string, value: V, size: number): void;
  /** Re-accounts an entry whose value grew (e.g. its decoded form was attached). */
  resize(key: string, size: number): void;
  readonly bytes: number;
  readonly entries: number;
  readonly maxBytes: number;
  /** Lookups that found their entry / did not, since the cache was made (the hit-ratio metric). */
  readonly hits: number;
  readonly misses: number;
}

export function createObjectCache<V>(options: { maxBytes?: number } = {}): ObjectCache<V> {
  const maxBytes = options.maxBytes ?? DEFAULT_CACHE_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new CatalogError('config', `cacheBytes must be a whole number of bytes >= 0, got ${String(options.maxBytes)}`);
  }
  // One huge object must not flush everything else, so an entry may use at most 1/8 of the budget.
  const maxEntry = Math.floor(maxBytes / 8);
  const map = new Map<string, { value: V; size: number }>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;

  const evict = () => {
    for (const [key, entry] of map) {
      if (bytes <= maxBytes) break;
      map.delete(key);
      bytes -= entry.size;
    }
  };
  const remove = (key: string) => {
    const old = map.get(key);
    if (old) {
      map.delete(key);
      bytes -= old.size;
    }
  };

  return {
    get(key) {
      const entry = map.get(key);
      if (!entry) {
        misses++;
        return undefined;
      }
      hits++;
      map.delete(key);
      map.set(key, entry);
      return entry.value;
    },
    set(key, value, size) {
      remove(key);
      const cost = size + key.length + ENTRY_OVERHEAD;
      if (cost > maxEntry) return;
      map.set(key, { value, size: cost });
      bytes += cost;
      evict();
    },
    resize(key, size) {
      const entry = map.get(key);
      if (!entry) return;
      const cost = size + key.length + ENTRY_OVERHEAD;
      if (cost > maxEntry) {
        remove(key);
        return;
      }
      bytes += cost - entry.size;
      entry.size = cost;
      evict();
    },
    get bytes() {
      return bytes;
    },
    get entries() {
      return map.size;
    },
    get hits() {
      return hits;
    },
    get misses() {
      return misses;
    },
    maxBytes,
  };
}
