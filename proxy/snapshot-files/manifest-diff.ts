/**
 * What changed between two snapshots, from their manifests alone: both list objects sorted by key,
 * so one merge pass over the two streams finds every new, changed (other SHA-256) and removed key,
 * with memory flat whatever the catalog size.
 *
 * @example
 *   for await (const c of diffManifests(oldFile, newFile)) c  // { key, change: 'changed', size, sha256 }
 */
import { createInterface } from 'node:readline';
import type { ManifestEntry } from '../../snapshots/manifest.js';
import type { SnapshotFile } from '../../snapshots/store/types.js';

export interface SnapshotChange {
  key: string;
  change: 'new' | 'changed' | 'removed';
  /** Size and hash of the object in the newer snapshot (absent for a removed key). */
  size?: number;
  sha256?: string;
}

async function* entriesOf(file: SnapshotFile): AsyncGenerator<ManifestEntry> {
  const rl = createInterface({ input: file.stream(0, Math.max(0, file.size - 1)), crlfDelay: Infinity });
  let first = true;
  for await (const line of rl) {
    if (line.length === 0) continue;
    if (first) {
      first = false; // the header
      continue;
    }
    yield JSON.parse(line) as ManifestEntry;
  }
}

export async function* diffManifests(before: SnapshotFile, after: SnapshotFile): AsyncGenerator<SnapshotChange> {
  const a = entriesOf(before);
  const b = entriesOf(after);
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
