/**
 * Both levels of a packed snapshot's proof in one read of each pack: the pack's own SHA-256 (the
 * manifest's level) and every object's SHA-256 (the index's level), taken from the same chunks. The
 * index rows of the pack come sorted by offset, so the objects are sliced out of the chunks as they
 * pass (a subarray, no copy); an object that straddles two chunks is hashed incrementally, so no
 * chunk is kept and no object is ever assembled.
 *
 * @example
 *   const check = createPackObjectCheck(nextRow, (row, why) => problems.push(`${row.key}: ${why}`));
 *   for await (const chunk of blobChunks(store, key, size)) check.chunk(chunk);
 *   check.end();
 */
import { createHash, hash as oneShotHash, type Hash } from 'node:crypto';
import type { BlobChunk } from './blob-chunks.js';

/** One row of the object index, as the verify pass reads it. */
export interface PackedRow {
  /** Where the object lies in its pack (already checked to lie inside it). */
  offset: number;
  length: number;
  /** The SHA-256 the index holds for the object (32 bytes). */
  sha256: Buffer;
}

export interface PackObjectCheck<R extends PackedRow> {
  /** Hashes the objects that end in `chunk` (chunks must come in order, from offset 0). */
  chunk(chunk: BlobChunk): void;
  /** Objects whose bytes never came (the pack ended early) are reported as such. */
  end(): void;
}

interface OpenObject<R> {
  row: R;
  hash: Hash;
  end: number;
}

/**
 * `nextRow` gives the pack's rows in offset order and null after the last; `onObject` is told of
 * every object checked (`mismatch` true when its bytes do not hash to the index's SHA-256).
 */
export function createPackObjectCheck<R extends PackedRow>(
  nextRow: () => R | null,
  onObject: (row: R, mismatch: boolean) => void,
  onUnread: (row: R) => void,
): PackObjectCheck<R> {
  // Rows that began in an earlier chunk and end in a later one. Usually none or one; rows may
  // overlap (identical objects can share bytes), so it is a list.
  let open: OpenObject<R>[] = [];
  let pending: R | null | undefined;
  const pull = () => (pending === undefined ? (pending = nextRow()) : pending);

  return {
    chunk({ offset: start, bytes }) {
      const stop = start + bytes.length;
      if (open.length > 0) {
        const still: OpenObject<R>[] = [];
        for (const o of open) {
          o.hash.update(bytes.subarray(0, Math.min(o.end, stop) - start));
          if (o.end <= stop) onObject(o.row, !o.hash.digest().equals(o.row.sha256));
          else still.push(o);
        }
        open = still;
      }
      for (let row = pull(); row !== null && row.offset < stop; row = pull()) {
        pending = undefined;
        const end = row.offset + row.length;
        // A row's offset is at least this chunk's start: rows are sorted, and one that started before
        // it was taken while its own chunk passed.
        const from = row.offset - start;
        if (from < 0) onUnread(row); // only if the rows were not sorted by offset
        else if (end <= stop) {
          // One-shot: no Hash object per object (5 million of them at a million cards).
          onObject(row, !oneShotHash('sha256', bytes.subarray(from, end - start), 'buffer').equals(row.sha256));
        } else {
          const hash = createHash('sha256').update(bytes.subarray(from));
          open.push({ row, hash, end });
        }
      }
    },
    end() {
      for (const o of open) onUnread(o.row);
      open = [];
      for (let row = pull(); row !== null; row = pull()) {
        pending = undefined;
        onUnread(row);
      }
    },
  };
}
