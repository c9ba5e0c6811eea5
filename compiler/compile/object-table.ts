/**
 * Everything the new snapshot holds, key by key, and how each key compares with the previous
 * snapshot. The manifest and the change list are written from it.
 */
import type { ManifestEntry, ChangeEntry } from '../../snapshots/manifest.js';
import type { ObjectLoc } from './pack-output.js';
import type { PreviousSnapshot } from './previous.js';

/** An object of the new snapshot: its manifest facts and where its bytes are (pack-output.ts). */
export interface TableEntry extends ManifestEntry {
  at: ObjectLoc;
}

export interface ChangeCounts {
  new: number;
  changed: number;
  unchanged: number;
  removed: number;
}

export class ObjectTable {
  private readonly entries = new Map<string, TableEntry>();

  constructor(private readonly previous: PreviousSnapshot | null) {}

  get size(): number {
    return this.entries.size;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** The entry recorded for `key`, if any. */
  get(key: string): TableEntry | undefined {
    return this.entries.get(key);
  }

  add(entry: TableEntry): void {
    if (this.entries.has(entry.key)) throw new Error(`two documents render to the same key: ${entry.key}`);
    this.entries.set(entry.key, entry);
  }

  /** Every entry so far, in insertion order. */
  values(): IterableIterator<TableEntry> {
    return this.entries.values();
  }

  sorted(): TableEntry[] {
    return [...this.entries.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** new/changed/unchanged/removed against the previous snapshot, plus the keys that are not unchanged. */
  diff(): { counts: ChangeCounts; changes: ChangeEntry[] } {
    const counts: ChangeCounts = { new: 0, changed: 0, unchanged: 0, removed: 0 };
    const changes: ChangeEntry[] = [];
    const prev = this.previous?.objects;
    for (const e of this.entries.values()) {
      const before = prev?.get(e.key);
      if (!before) {
        counts.new++;
        changes.push({ key: e.key, change: 'new' });
      } else if (before.sha256 !== e.sha256) {
        counts.changed++;
        changes.push({ key: e.key, change: 'changed' });
      } else counts.unchanged++;
    }
    if (prev) {
      for (const key of prev.keys()) {
        if (!this.entries.has(key)) {
          counts.removed++;
          changes.push({ key, change: 'removed' });
        }
      }
    }
    changes.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { counts, changes };
  }
}
