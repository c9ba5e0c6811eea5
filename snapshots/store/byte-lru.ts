/**
 * The remote source's object cache (blob-source.ts): least recently used first out, bounded by the
 * bytes it holds, keyed by an object's SHA-256. Objects are immutable, so an entry never goes stale:
 * after a publish, every object the new snapshot shares with the old one is still a hit (the
 * proxy's own cache above it is keyed by snapshot id and starts empty at each switch).
 *
 * @example
 *   const lru = createByteLru(32 * 1024 * 1024);
 *   lru.set(sha256, bytes);
 *   lru.get(sha256);   // the bytes, or undefined
 */
import { CatalogError } from '../errors.js';

export interface ByteLru {
  get(key: string): Buffer | undefined;
  /** Keeps `value` unless it alone would take more than an eighth of the budget. */
  set(key: string, value: Buffer): void;
  /** Bytes held (values only: the keys are 64 hex characters each). */
  readonly bytes: number;
  readonly size: number;
}

export function createByteLru(maxBytes: number): ByteLru {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new CatalogError('config', `the object cache needs a whole number of bytes >= 0, got ${String(maxBytes)}`);
  }
  // Map iteration is insertion order: deleting and re-inserting on a hit keeps the oldest first.
  const held = new Map<string, Buffer>();
  let bytes = 0;
  return {
    get(key) {
      const value = held.get(key);
      if (value !== undefined) {
        held.delete(key);
        held.set(key, value);
      }
      return value;
    },
    set(key, value) {
      if (held.has(key) || value.length > maxBytes / 8) return;
      held.set(key, value);
      bytes += value.length;
      for (const [oldKey, old] of held) {
        if (bytes <= maxBytes) break;
        held.delete(oldKey);
        bytes -= old.length;
      }
    },
    get bytes() {
      return bytes;
    },
    get size() {
      return held.size;
    },
  };
}
