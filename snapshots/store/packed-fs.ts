/**
 * Reading a packed snapshot (issue 17) from a snapshot root on the local disk: the object index
 * (`<id>/objects.sqlite`) says where a key's bytes lie, and one positioned read on the shared pack
 * file (`packs/<sha256>.pack`) returns them. No per-URL files, no whole-pack reads.
 *
 * One read-only index handle per snapshot id, kept while the snapshot is in use and closed once it
 * has gone unused for a grace period (like the search indexes, proxy/search/index-cache.ts): the
 * proxy resolves `current` every 250 ms, and a request that resolved the old snapshot just before a
 * switch still finishes on it. Pack descriptors are shared by every snapshot of the root and bounded
 * (pack-reader.ts), so memory and descriptors do not grow with the catalog.
 *
 * @example
 *   const packed = createPackedSnapshots('/data/snapshots');
 *   const reader = packed.reader('20261122T020000Z-1a2b3c4d');
 *   await reader.get('v1/catalog/summary.json.gz');   // the stored gzip bytes, or null
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { OBJECT_INDEX_FILE, PACKS_DIR } from '../keys.js';
import { CatalogError } from '../errors.js';
import { createObjectLookup, type ObjectLookup } from '../packs/object-index.js';
import { createPackReader, type PackReader } from '../packs/pack-reader.js';
import type { SnapshotEntry } from './types.js';

export interface PackedSnapshots {
  /** Reads the objects of snapshot `id` (its folder must hold a published packed snapshot). */
  get(id: string, key: string): Buffer | null;
  /** Every object of snapshot `id`, sorted by key (on a connection of its own: see entries()). */
  entries(id: string): AsyncGenerator<SnapshotEntry>;
  close(): void;
}

interface OpenIndex {
  db: Database.Database;
  lookup: ObjectLookup;
  lastUsed: number;
}

export interface PackedSnapshotsOptions {
  /** How long an index handle of a snapshot no longer used stays open (default 60 s). */
  graceMs?: number;
  now?: () => number;
  /** Pack files open at once (default 64). */
  maxOpenPacks?: number;
}

export function createPackedSnapshots(root: string, options: PackedSnapshotsOptions = {}): PackedSnapshots {
  const graceMs = options.graceMs ?? 60_000;
  const now = options.now ?? Date.now;
  const packs: PackReader = createPackReader({ dir: join(root, PACKS_DIR), maxOpen: options.maxOpenPacks });
  const open = new Map<string, OpenIndex>();

  const sweep = (keep: string, at: number) => {
    for (const [id, entry] of open) {
      if (id !== keep && at - entry.lastUsed > graceMs) {
        open.delete(id);
        entry.db.close();
      }
    }
  };

  const indexOf = (id: string): OpenIndex => {
    const at = now();
    let entry = open.get(id);
    if (entry === undefined) {
      const db = openIndexFile(join(root, id, OBJECT_INDEX_FILE), id);
      try {
        entry = { db, lookup: createObjectLookup(db), lastUsed: at };
      } catch (err) {
        db.close();
        throw err;
      }
      open.set(id, entry);
      sweep(id, at);
    }
    entry.lastUsed = at;
    return entry;
  };

  return {
    get(id, key) {
      const where = indexOf(id).lookup.get(key);
      if (where === null) return null;
      return packs.read(where.pack, where.offset, where.length);
    },
    entries(id) {
      return indexEntries(join(root, id, OBJECT_INDEX_FILE), id);
    },
    close() {
      for (const entry of open.values()) entry.db.close();
      open.clear();
      packs.close();
    },
  };
}

/** A read-only handle on an object index; a missing or unreadable file is `corrupt_object` naming it. */
export function openIndexFile(path: string, snapshotId: string): Database.Database {
  try {
    return new Database(path, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new CatalogError('corrupt_object', `snapshot ${snapshotId} has no readable object index at ${path} (${(err as Error).message}); run catalog verify`, { snapshotId }, { cause: err });
  }
}

/**
 * Every row of an object index in key order (a WITHOUT ROWID table is stored in key order, so this is
 * a scan, not a sort). A connection of its own: better-sqlite3 refuses other statements on a
 * connection while one of its iterators is open, and the proxy's lookups share the other one. Rows
 * are read a page at a time between awaits so a long listing does not hold the event loop.
 */
export async function* indexEntries(path: string, snapshotId: string): AsyncGenerator<SnapshotEntry> {
  const db = openIndexFile(path, snapshotId);
  try {
    const page = db.prepare('SELECT key, length, sha256 FROM objects WHERE key > ? ORDER BY key LIMIT 2000');
    let after = '';
    for (;;) {
      const rows = page.all(after) as { key: string; length: number; sha256: Buffer }[];
      if (rows.length === 0) return;
      for (const r of rows) yield { key: r.key, size: r.length, sha256: r.sha256.toString('hex') };
      after = rows[rows.length - 1].key;
    }
  } finally {
    db.close();
  }
}
