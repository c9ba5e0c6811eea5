/**
 * Each host's cache of key rows, so a bearer request does not cost a PostgreSQL round trip. A key
 * change (revoke, rotate) anywhere is broadcast (key-changes.ts) and drops the row here; a row also
 * expires after `maxAgeMs`, which bounds how long a host could serve a revoked key should a
 * broadcast be lost with Redis itself down (when the limiter refuses every bearer request anyway).
 *
 * A load that started before an invalidation is not cached when it ends: it may have read the row
 * just before the change committed, and would otherwise put the stale row back for maxAgeMs.
 */
export interface KeyCache<T> {
  /** The cached value of `keyId`, else `load()`'s (cached when not null). */
  get(keyId: string, load: () => Promise<T | null>): Promise<T | null>;
  invalidate(keyId: string): void;
  /** Drops everything: after the broadcast channel was down, changes may have been missed. */
  clear(): void;
}

/** How long a host may keep a key row without hearing of a change (the bound should a broadcast be lost). */
export const KEY_CACHE_MAX_AGE_MS = 30_000;

export function createKeyCache<T>(options: { maxAgeMs?: number; maxEntries?: number; clock?: () => number } = {}): KeyCache<T> {
  const maxAgeMs = options.maxAgeMs ?? KEY_CACHE_MAX_AGE_MS;
  const maxEntries = options.maxEntries ?? 100_000;
  const clock = options.clock ?? Date.now;
  const rows = new Map<string, { value: T; at: number }>();
  // Bumped by every invalidation or clear; a load keeps its result only if it did not move.
  let epoch = 0;
  return {
    async get(keyId, load) {
      const hit = rows.get(keyId);
      if (hit && clock() - hit.at < maxAgeMs) return hit.value;
      const started = epoch;
      const at = clock();
      const value = await load();
      if (value !== null && epoch === started) {
        if (rows.size >= maxEntries) rows.clear();
        rows.set(keyId, { value, at });
      }
      return value;
    },
    invalidate(keyId) {
      epoch++;
      rows.delete(keyId);
    },
    clear() {
      epoch++;
      rows.clear();
    },
  };
}
