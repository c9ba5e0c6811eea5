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
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { isPackHash, type PackReader } from '../../snapshots/packs/pack-reader.js';
import { packFileName } from '../../snapshots/packs/pack-writer.js';

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
    const total = spansOf(at, a, b, spans);
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

/**
 * The reads of objects a..b-1, pushed onto `spans` as (first object, end object, start byte, end
 * byte) quadruples: neighbours in one pack read together. Returns the bytes they read.
 */
export function spansOf(at: ObjectPlaces, a: number, b: number, spans: number[]): number {
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
  return total;
}

/** Reads kept in flight by warmReads: the libuv pool's four threads each with a few queued. */
const WARM_IN_FLIGHT = 16;

/**
 * Reads the byte ranges `spans` (as spansOf gives them for `at`) of the packs in `dir` ahead of
 * their synchronous reads, many at a time, and drops the bytes: the point is the page cache. On a
 * host whose cache does not hold last night's packs, the synchronous reads of a patch wait for the
 * disk one at a time (about 10 s of a million-card incremental compile's bulk thread); the same reads
 * in flight together take a fraction of it. Best effort: a pack that cannot be read here is left to
 * the synchronous read, which reports it.
 */
export async function warmReads(dir: string, at: ObjectPlaces, spans: readonly number[]): Promise<void> {
  const handles = new Map<string, Promise<FileHandle | null>>();
  const handleOf = (pack: string) => {
    let h = handles.get(pack);
    // The name comes from the previous index; it still becomes a path, so its shape is checked.
    if (!h) handles.set(pack, (h = isPackHash(pack) ? open(join(dir, packFileName(pack)), 'r').catch(() => null) : Promise.resolve(null)));
    return h;
  };
  let next = 0;
  const lane = async () => {
    const buffer = Buffer.allocUnsafeSlow(READ_BYTES);
    while (next < spans.length) {
      const s = next;
      next += 4;
      const handle = await handleOf(at.pack(spans[s]));
      if (handle === null) continue;
      const start = spans[s + 2];
      const length = Math.min(spans[s + 3] - start, buffer.length);
      await handle.read(buffer, 0, length, start).catch(() => undefined);
    }
  };
  try {
    await Promise.all(Array.from({ length: WARM_IN_FLIGHT }, lane));
  } finally {
    for (const h of handles.values()) await (await h)?.close().catch(() => undefined);
  }
}
