/**
 * Open search indexes, one read-only handle per snapshot id. The proxy switches snapshots without a
 * restart, so a handle is closed once its snapshot has gone unused for a grace period rather than
 * at the switch: a request that resolved the old snapshot just before the switch still finishes on
 * it, and a rollback to a snapshot still within its grace period costs no reopen. Sweeping happens
 * on use, so nothing runs in the background.
 *
 * @example
 *   const indexes = createSearchIndexCache({ graceMs: 60_000 });
 *   const index = await indexes.forSnapshot(reader);   // opens once per snapshot id
 *   await indexes.close();                             // at shutdown
 */
import { CatalogError, isCatalogError } from '../../snapshots/errors.js';
import type { SnapshotReader } from '../../snapshots/store/types.js';
import { openSearchIndex, type SearchIndex } from './search-index.js';

export interface SearchIndexCacheOptions {
  /** How long a handle of a snapshot that is no longer used stays open. Default 60 s. */
  graceMs?: number;
  /** Clock in ms (tests pass a fake one). */
  now?: () => number;
  /** Opens an index file (tests pass a counting wrapper). */
  open?: (path: string) => SearchIndex;
}

export interface SearchIndexCache {
  /** The open index of this snapshot; `unavailable` when the snapshot has no usable index. */
  forSnapshot(reader: SnapshotReader): Promise<SearchIndex>;
  /** Snapshot ids with an open handle. */
  openIds(): string[];
  close(): Promise<void>;
}

interface Entry {
  index: SearchIndex;
  lastUsed: number;
}

export function createSearchIndexCache(options: SearchIndexCacheOptions = {}): SearchIndexCache {
  const graceMs = options.graceMs ?? 60_000;
  if (!Number.isFinite(graceMs) || graceMs < 0) throw new CatalogError('config', `search graceMs must be a number >= 0, got ${String(options.graceMs)}`);
  const now = options.now ?? Date.now;
  const open = options.open ?? openSearchIndex;
  const entries = new Map<string, Entry>();

  const sweep = (keepId: string, at: number) => {
    for (const [id, entry] of entries) {
      if (id !== keepId && at - entry.lastUsed > graceMs) {
        entries.delete(id);
        entry.index.close();
      }
    }
  };

  const openFor = (reader: SnapshotReader, path: string | null): SearchIndex => {
    if (path === null) throw new CatalogError('unavailable', `snapshot ${reader.id} has no search index`);
    try {
      return open(path);
    } catch (err) {
      if (isCatalogError(err)) throw err;
      throw new CatalogError('unavailable', `the search index of snapshot ${reader.id} cannot be opened`, {}, { cause: err });
    }
  };

  return {
    async forSnapshot(reader) {
      let entry = entries.get(reader.id);
      if (entry === undefined) {
        const path = await reader.searchDbPath();
        // Another request may have opened it while this one waited for the path.
        entry = entries.get(reader.id);
        if (entry === undefined) {
          entry = { index: openFor(reader, path), lastUsed: now() };
          entries.set(reader.id, entry);
        }
      }
      const at = now();
      entry.lastUsed = at;
      sweep(reader.id, at);
      return entry.index;
    },

    openIds() {
      return [...entries.keys()];
    },

    async close() {
      for (const entry of entries.values()) entry.index.close();
      entries.clear();
    },
  };
}
