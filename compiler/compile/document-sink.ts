/**
 * Writes the aggregate documents (oracle, lists, feeds, summary) rendered on the main thread. The
 * input fingerprint of such a document is the hash of its stable JSON: when it equals the previous
 * snapshot's, the object is re-used (hard link, made by the reuse queue's thread) instead of
 * compressed and written again.
 */
import { fingerprint, gzip, sha256Hex, stableJson } from '../../snapshots/codec.js';
import type { SnapshotWriter } from '../../snapshots/store/types.js';
import type { ObjectTable } from './object-table.js';
import type { PreviousSnapshot } from './previous.js';
import type { ReuseQueue } from './reuse-queue.js';

export interface DocumentSink {
  put(key: string, doc: unknown): void;
}

/** Links go through `reuse` (drained by the caller before the folder is checked and published). */
export function createDocumentSink(writer: SnapshotWriter, table: ObjectTable, previous: PreviousSnapshot | null, codeHash: string, reuse: ReuseQueue): DocumentSink {
  return {
    put(key, doc) {
      const json = stableJson(doc);
      const input = fingerprint(codeHash, json);
      const before = previous?.objects.get(key);
      if (previous && before && before.input === input) {
        reuse.push(previous.dir, [key]);
        table.add({ key, size: before.size, sha256: before.sha256, input }, false);
        return;
      }
      const bytes = gzip(json);
      writer.putSync(key, bytes);
      table.add({ key, size: bytes.length, sha256: sha256Hex(bytes), input }, true);
    },
  };
}

