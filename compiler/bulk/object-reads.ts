/**
 * The stored bytes of a run of a bulk file's objects, those near each other in one pack read
 * together. A pack holds the cards in the order they were rendered, so the 30d objects of
 * consecutive keys are usually a card's other four documents apart (about 4 KB at a million cards):
 * one read of a segment's span replaces a system call per object (about 15 µs each on this
 * project's hosts; docs/benchmarks.md).
 *
 * @example
 *   const objects = coalescedReads(packs, { pack: (i) => names[i], offset: (i) => offsets[i], size: (i) => sizes[i] });
 *   objects(10, 25)   // the stored bytes of objects 10..24, in order (views valid until the next call)
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

/**
 * The reader of a list's objects: `(a, b)` gives the stored bytes of objects a..b-1 as views of one
 * buffer re-used by every call, so they hold until the next call only (both callers turn them into
 * lines at once). A new buffer per read was fresh memory for the kernel to fault in on every copy
 * (docs/benchmarks.md).
 */
export function coalescedReads(packs: PackReader, at: ObjectPlaces): (a: number, b: number) => Buffer[] {
  let scratch = Buffer.allocUnsafeSlow(READ_BYTES);
  const spans: number[] = [];
  return (a, b) => {
    // The reads first (object i..j-1 from start to end), then one buffer for all of them.
    spans.length = 0;
    let total = 0;
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
      spans.push(i, j, start, end);
      total += end - start;
      i = j;
    }
    if (scratch.length < total) scratch = Buffer.allocUnsafeSlow(Math.max(total, scratch.length * 2));
    const out: Buffer[] = [];
    let put = 0;
    for (let s = 0; s < spans.length; s += 4) {
      const i = spans[s];
      const j = spans[s + 1];
      const start = spans[s + 2];
      const end = spans[s + 3];
      packs.readInto(at.pack(i), start, end - start, scratch, put);
      for (let k = i; k < j; k++) out.push(scratch.subarray(put + at.offset(k) - start, put + at.offset(k) - start + at.size(k)));
      put += end - start;
    }
    return out;
  };
}
