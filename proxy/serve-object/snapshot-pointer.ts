/**
 * Resolves the `current` pointer at most once per `ttlMs` (concurrent requests share one lookup), so
 * a busy worker does not readlink on every request, yet a publish is picked up within `ttlMs`
 * without a restart. Each request then keeps the reader it got for its whole life (see pin.ts), so a
 * request in flight finishes on the snapshot it started on even when the pointer moves.
 *
 * @example
 *   const pointer = createSnapshotPointer(createFsSnapshotSource('/data/snapshots'));
 *   const reader = await pointer.current();   // null before the first publish
 */
import type { SnapshotReader, SnapshotSource } from '../../snapshots/store/types.js';

export const POINTER_TTL_MS = 250;

export interface SnapshotPointer {
  current(): Promise<SnapshotReader | null>;
}

export function createSnapshotPointer(
  source: SnapshotSource,
  options: { ttlMs?: number; now?: () => number } = {},
): SnapshotPointer {
  const ttlMs = options.ttlMs ?? POINTER_TTL_MS;
  const now = options.now ?? Date.now;
  let resolved: { at: number; reader: Promise<SnapshotReader | null> } | null = null;
  return {
    current() {
      const t = now();
      if (resolved && t - resolved.at < ttlMs) return resolved.reader;
      const reader = source.current();
      const entry = { at: t, reader };
      resolved = entry;
      // A failed lookup (e.g. a transient I/O error) is not remembered: the next request retries.
      reader.catch(() => {
        if (resolved === entry) resolved = null;
      });
      return reader;
    },
  };
}
