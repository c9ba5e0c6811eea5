/**
 * What changed between two snapshots, from their listings alone (manifest lines or object index):
 * both list objects sorted by key,
 * so one merge pass over the two streams finds every new, changed (other SHA-256) and removed key,
 * with memory flat whatever the catalog size.
 *
 * @example
 *   for await (const c of diffManifests(oldReader, newReader)) c  // { key, change: 'changed', size, sha256 }
 */
import type { SnapshotReader } from '../../snapshots/store/types.js';

export interface SnapshotChange {
  key: string;
  change: 'new' | 'changed' | 'removed';
  /** Size and hash of the object in the newer snapshot (absent for a removed key). */
  size?: number;
  sha256?: string;
}

export async function* diffManifests(before: SnapshotReader, after: SnapshotReader): AsyncGenerator<SnapshotChange> {
  const a = before.entries()[Symbol.asyncIterator]();
  const b = after.entries()[Symbol.asyncIterator]();
  let x = await a.next();
  let y = await b.next();
  while (!x.done || !y.done) {
    if (y.done || (!x.done && x.value.key < y.value.key)) {
      yield { key: x.value!.key, change: 'removed' };
      x = await a.next();
    } else if (x.done || y.value.key < x.value.key) {
      yield { key: y.value.key, change: 'new', size: y.value.size, sha256: y.value.sha256 };
      y = await b.next();
    } else {
      if (x.value.sha256 !== y.value.sha256) yield { key: y.value.key, change: 'changed', size: y.value.size, sha256: y.value.sha256 };
      x = await a.next();
      y = await b.next();
    }
  }
}
