/**
 * The stored bytes of a run of a bulk file's objects, those near each other in one pack read
 * together. A pack holds the cards in the order they were rendered, so the 30d objects of
 * consecutive keys are usually a card's other four documents apart (about 4 KB at a million cards):
 * one read of a segment's span replaces a system call per object (about 15 µs each on this
 * project's hosts; docs/benchmarks.md).
 *
 * @example
 *   const objects = coalescedReads(packs, { pack: (i) => names[i], offset: (i) => offsets[i], size: (i) => sizes[i] });
 *   objects(10, 25)   // the stored bytes of objects 10..24, in order (views into shared reads)
 */
import type { PackReader } from '../../snapshots/packs/pack-reader.js';

/** Where object `i` of a list is. */
export interface ObjectPlaces {
  pack(i: number): string;
  offset(i: number): number;
  size(i: number): number;
}

/** Objects further apart than this in a pack are read on their own. */
const GAP_BYTES = 64 * 1024;
/** At most this many bytes in one read. */
const READ_BYTES = 512 * 1024;

export function coalescedReads(packs: PackReader, at: ObjectPlaces): (a: number, b: number) => Buffer[] {
  return (a, b) => {
    const out: Buffer[] = [];
    for (let i = a; i < b; ) {
      const pack = at.pack(i);
      const start = at.offset(i);
      let end = start + at.size(i);
      let j = i + 1;
      for (; j < b && at.pack(j) === pack; j++) {
        const o = at.offset(j);
        const e = o + at.size(j);
        if (o < end || o - end > GAP_BYTES || e - start > READ_BYTES) break;
        end = e;
      }
      const span = packs.read(pack, start, end - start);
      for (let k = i; k < j; k++) out.push(span.subarray(at.offset(k) - start, at.offset(k) - start + at.size(k)));
      i = j;
    }
    return out;
  };
}
