/**
 * The compile's `object index` phase: the object index (objects.sqlite) has been filled as the
 * objects were written (object-table.ts); what is left is moving the live objects of sparse previous
 * packs into the new pack, then sealing it and listing the packs the index uses.
 */
import type { PackRef } from '../../snapshots/manifest.js';
import type { ObjectTable } from './object-table.js';
import { SPARSE_PACK_SHARE, type PackOutput } from './pack-output.js';

/**
 * Copies the live objects of every previous pack of which less than half the bytes are still used
 * into the new pack (so the sparse pack is deleted once the last snapshot that uses it is pruned),
 * then finishes the index. Returns the packs it lists and the sparse packs rewritten.
 */
export function finishSnapshotIndex(out: PackOutput, table: ObjectTable): { packs: PackRef[]; rewritten: string[] } {
  const sparse = table.sparsePacks(SPARSE_PACK_SHARE);
  for (const pack of sparse) {
    const moved = out.copyFromPack(pack.sha256, pack.objects);
    pack.objects.forEach((o, i) => table.relocate(o.key, pack.seq, o.length, moved[i]));
  }
  return { packs: table.finish(), rewritten: sparse.map((p) => p.sha256).sort() };
}
