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
import { close, openSync, read } from 'node:fs';
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

/**
 * Starts reading the byte ranges `spans` (as spansOf gives them for `at`) of the packs in `dir`, all
 * queued at once on libuv's thread pool, and drops the bytes: the point is the page cache. On a host
 * whose cache does not hold last night's packs, the synchronous reads of a patch wait for the disk
 * one read at a time (about 10 s of a million-card incremental compile's bulk thread). Queued in the
 * order the patch reads them, the pool's threads read ahead of it while it runs, four at a time; it
 * does not wait for them (waiting first cost about a second where the packs were cached). The promise
 * settles when every read has finished and the packs are closed. Best effort: a pack that cannot be
 * read here is left to the synchronous read, which reports it.
 */
export function warmReads(dir: string, at: ObjectPlaces, spans: readonly number[]): Promise<void> {
  const fds = new Map<string, number | null>();
  const fdOf = (pack: string): number | null => {
    let fd = fds.get(pack);
    if (fd === undefined) {
      // The name comes from the previous index; it still becomes a path, so its shape is checked.
      try {
        fd = isPackHash(pack) ? openSync(join(dir, packFileName(pack)), 'r') : null;
      } catch {
        fd = null;
      }
      fds.set(pack, fd);
    }
    return fd;
  };
  // One buffer for every read: the bytes are never looked at, so reads landing on each other do no harm.
  const sink = Buffer.allocUnsafeSlow(READ_BYTES);
  let pending = 0;
  return new Promise<void>((resolve) => {
    const done = () => {
      if (--pending > 0) return;
      for (const fd of fds.values()) if (fd !== null) close(fd, () => undefined);
      resolve();
    };
    pending = 1;
    for (let s = 0; s < spans.length; s += 4) {
      const fd = fdOf(at.pack(spans[s]));
      if (fd === null) continue;
      pending++;
      read(fd, sink, 0, Math.min(spans[s + 3] - spans[s + 2], sink.length), spans[s + 2], done);
    }
    done();
  });
}
