/**
 * Everything the new snapshot holds, key by key, and how each key compares with the previous
 * snapshot. The manifest and the change list are written from it.
 */
import type { ChangeEntry } from '../../snapshots/manifest.js';
import { ObjectColumns, type ObjectLoc, type StoredObject } from './object-columns.js';
import type { PreviousSnapshot } from './previous.js';

/** An object of the new snapshot: its manifest facts and where its bytes are (pack-output.ts). */
export interface TableEntry extends StoredObject {
  at: ObjectLoc;
}

export interface ChangeCounts {
  new: number;
  changed: number;
  unchanged: number;
  removed: number;
}

/** Column storage (object-columns.ts): at a million cards the table holds 5.3 million objects. */
export class ObjectTable {
  private readonly objects = new ObjectColumns();

  constructor(private readonly previous: PreviousSnapshot | null) {}

  get size(): number {
    return this.objects.size;
  }

  has(key: string): boolean {
    return this.objects.has(key);
  }

  /** The input fingerprint recorded for `key`; undefined when there is no such object. */
  inputOf(key: string): string | null | undefined {
    return this.objects.inputOf(key);
  }

  add(entry: TableEntry): void {
    this.objects.add(entry);
  }

  /**
   * Adds the previous snapshot's object at `key` unchanged (same bytes, pack and offset, input); false
   * when there is none or it has no pack (per-URL previous snapshot: the caller copies it with `add`).
   */
  reusePrevious(key: string): boolean {
    return this.previous !== null && this.objects.copyFrom(this.previous.objects, key);
  }

  /** Moves an object to another pack and offset (a sparse pack's live object, pack-output.ts). */
  relocate(key: string, at: ObjectLoc): void {
    this.objects.relocate(key, at);
  }

  /** Every entry so far, in insertion order (fresh views). */
  values(): Iterable<TableEntry> {
    return this.objects.values() as Iterable<TableEntry>;
  }

  /** Every entry in key order (fresh views, made as the caller iterates). */
  sorted(): Iterable<TableEntry> {
    return this.objects.sorted() as Iterable<TableEntry>;
  }

  /** new/changed/unchanged/removed against the previous snapshot, plus the keys that are not unchanged. */
  diff(): { counts: ChangeCounts; changes: ChangeEntry[] } {
    const counts: ChangeCounts = { new: 0, changed: 0, unchanged: 0, removed: 0 };
    const changes: ChangeEntry[] = [];
    const prev = this.previous?.objects;
    for (const key of this.objects.keys()) {
      if (!prev?.has(key)) {
        counts.new++;
        changes.push({ key, change: 'new' });
      } else if (!this.objects.sameBytes(key, prev, key)) {
        counts.changed++;
        changes.push({ key, change: 'changed' });
      } else counts.unchanged++;
    }
    if (prev) {
      for (const key of prev.keys()) {
        if (!this.objects.has(key)) {
          counts.removed++;
          changes.push({ key, change: 'removed' });
        }
      }
    }
    changes.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { counts, changes };
  }
}
