/**
 * A file's lines split and hashed on another thread (compile/read-ahead.ts), handed to this one in
 * batches: the same ByteLine batches `splitLineBytes` makes here, each line with the SHA-1 of its
 * bytes (base64url, `key`) already taken. The price stream of an incremental compile needs only that
 * key for a line it takes from the previous snapshot unchanged (prices.ts `take`): at a million cards
 * hashing 2.76 GB of price lines one line at a time was about 3 s of the main thread, the compile's
 * critical path, while the other core had room (docs/benchmarks.md).
 *
 * The lines' bytes come in slots of one SharedArrayBuffer (no copy per message, no ArrayBuffer per
 * batch counted towards V8's external memory). The reader has seven batches asked for while the
 * consumer works on another, each in a slot of its own: a slot is written again only once the
 * consumer has asked for the batch after the one it held (the contract of lineBytes: a batch is
 * valid until the next is asked for). The first line of a batch, begun in the chunk before, is
 * copied to the start of the slot; one longer than that room (256 KB) comes as bytes of its own in
 * the reply.
 *
 * @example
 *   // the thread:  const batches = openLineBatches(path, slots);  ...  await batches.next(slot)
 *   for await (const batch of hashedLineBytes(path, reader)) for (const line of batch) use(line.key!, line.bytes);
 */
import { hash } from 'node:crypto';
import { missingOrUnreadable } from './fs-source.js';
import { splitLineBytes, type ByteLine } from './lines.js';
import { alignedSharedBuffer, openUncached, type UncachedFile } from './uncached-read.js';

/**
 * Slots of the shared buffer: one the consumer holds, the others being filled. Seven batches ahead
 * (about 7 MB of the file) rather than two: the compile's other threads read and copy files meanwhile
 * (the previous index, the bulk files), and with two ahead the main thread and this one took turns
 * waiting on each other (a million cards: the phase that streams the price file shorter in 5
 * of 6 alternating rounds, docs/benchmarks.md).
 */
export const LINE_SLOTS = 8;
/** Bytes of a slot: a batch is the lines that end in one 1 MB chunk, plus the one begun before it. */
export const LINE_SLOT_BYTES = 1024 * 1024 + 256 * 1024;
/** The start of a slot kept for the batch's first line, which began in the chunk before (longer ones come in the reply). */
const RESERVE_BYTES = 256 * 1024;
/** Characters of a key: base64url of a 20-byte SHA-1, unpadded. */
export const KEY_CHARS = 27;

/** One batch as it crosses the thread boundary. */
export interface HashedBatch {
  slot: number;
  lineNos: Float64Array;
  /** Where each line's bytes are in the slot (-1: in `own`, or none for a line with a problem). */
  starts: Float64Array;
  lengths: Float64Array;
  /** The lines' keys, KEY_CHARS each, one after another (spaces for a line with a problem). */
  keys: string;
  /** [index in the batch, problem] of the lines that have one (splitLineBytes: over the cap). */
  problems: [number, string][];
  /** [index in the batch, bytes] of the lines that did not fit the slot. */
  own: [number, Uint8Array][];
}

/** The reading side, as the thread offers it (read-ahead.ts). */
export interface LineBatchReader {
  open(path: string, slots: SharedArrayBuffer): Promise<void>;
  /** The next batch, written into `slot`; null at the end of the file. */
  next(slot: number): Promise<HashedBatch | null>;
  close(): Promise<void>;
}

const NO_KEY = ' '.repeat(KEY_CHARS);

/**
 * The thread's side: the file at `path` split into batches in `slots`. Each chunk of the file is read
 * straight into the slot of the batch asked for, after RESERVE_BYTES kept for the batch's first line
 * (begun in the chunk before, so splitLineBytes made it of its own): the other lines are views of the
 * slot already, and are not copied (copying 2.76 GB of price lines into the slots took this thread
 * 2.7 s at a million cards). A chunk that ends no line (inside a long line) is read into the same
 * slot: splitLineBytes has copied what it needs of it by then. The file is read past the page cache
 * (uncached-read.ts): it is read once, whole, and the kernel's copy of it was most of this thread's
 * time.
 */
export async function openLineBatches(path: string, slots: SharedArrayBuffer): Promise<{ next(slot: number): Promise<HashedBatch | null>; close(): Promise<void> }> {
  if (slots.byteLength !== LINE_SLOTS * LINE_SLOT_BYTES) throw new Error('hashed lines: a shared buffer of another size');
  let file: UncachedFile | null;
  try {
    file = openUncached(path);
  } catch (err) {
    throw missingOrUnreadable(err, path);
  }
  let into: Buffer = Buffer.alloc(0);
  // Read synchronously: this thread has nothing else to do meanwhile, and the main thread has two
  // batches asked for ahead.
  async function* chunks(): AsyncGenerator<Buffer> {
    for (;;) {
      if (file === null) return;
      const read = file.read(into.subarray(RESERVE_BYTES, LINE_SLOT_BYTES));
      if (read === 0) return;
      yield into.subarray(RESERVE_BYTES, RESERVE_BYTES + read);
    }
  }
  const batches = splitLineBytes(chunks());
  const close = () => {
    file?.close();
    file = null;
  };
  const nextInto = async (slot: number): Promise<HashedBatch | null> => {
    if (!Number.isInteger(slot) || slot < 0 || slot >= LINE_SLOTS) throw new Error(`hashed lines: no slot ${slot}`);
    into = Buffer.from(slots, slot * LINE_SLOT_BYTES, LINE_SLOT_BYTES);
    let step: IteratorResult<ByteLine[]>;
    try {
      step = await batches.next();
    } catch (err) {
      close();
      throw missingOrUnreadable(err, path);
    }
    if (step.done) {
      close();
      return null;
    }
    const lines = step.value;
    const n = lines.length;
    const batch: HashedBatch = {
      slot, lineNos: new Float64Array(n), starts: new Float64Array(n), lengths: new Float64Array(n), keys: '', problems: [], own: [],
    };
    // Where the slot's memory starts, to tell a view of it from a line of its own.
    const base = into.byteOffset;
    let reserved = 0;
    let keys = '';
    for (let i = 0; i < n; i++) {
      const { lineNo, bytes, problem } = lines[i];
      batch.lineNos[i] = lineNo;
      batch.lengths[i] = bytes.length;
      if (problem !== undefined) {
        batch.problems.push([i, problem]);
        batch.starts[i] = -1;
        keys += NO_KEY;
        continue;
      }
      keys += hash('sha1', bytes, 'base64url');
      if (bytes.buffer === into.buffer && bytes.byteOffset >= base + RESERVE_BYTES && bytes.byteOffset + bytes.length <= base + LINE_SLOT_BYTES) {
        batch.starts[i] = bytes.byteOffset - base;
      } else if (reserved + bytes.length <= RESERVE_BYTES) {
        batch.starts[i] = reserved;
        reserved += bytes.copy(into, reserved);
      } else {
        batch.starts[i] = -1;
        batch.own.push([i, Uint8Array.from(bytes)]);
      }
    }
    batch.keys = keys;
    return batch;
  };
  // One batch at a time, in the order asked: the chunks are read into the slot of the batch being made.
  let last: Promise<unknown> = Promise.resolve();
  return {
    next(slot) {
      const batch = last.then(() => nextInto(slot));
      last = batch.catch(() => undefined);
      return batch;
    },
    async close() {
      await last;
      await batches.return(undefined);
      close();
    },
  };
}

/**
 * The consumer's side: the lines of the file at `path` in batches, each line with its `key`. The
 * bytes of a batch's lines are views of its slot, valid until the next batch is asked for.
 */
export async function* hashedLineBytes(path: string, reader: LineBatchReader): AsyncGenerator<ByteLine[]> {
  // Page-aligned, so the thread can read the file into it past the page cache (uncached-read.ts).
  const slots = alignedSharedBuffer(LINE_SLOTS * LINE_SLOT_BYTES);
  const views = Array.from({ length: LINE_SLOTS }, (_, i) => Buffer.from(slots, i * LINE_SLOT_BYTES, LINE_SLOT_BYTES));
  await reader.open(path, slots);
  const asked: Promise<HashedBatch | null>[] = [];
  let next = 0;
  let ended = false;
  const ask = () => {
    if (ended) return;
    const batch = reader.next(next++ % LINE_SLOTS);
    // Awaited in turn below (or on the way out): never an unhandled rejection meanwhile.
    batch.catch(() => undefined);
    asked.push(batch);
  };
  try {
    for (let i = 0; i < LINE_SLOTS - 1; i++) ask();
    for (;;) {
      const batch = await asked.shift()!;
      if (batch === null) {
        ended = true;
        return;
      }
      // Batch k is in slot k % LINE_SLOTS; the one asked for now goes into the slot of batch k - 1, which
      // the consumer gave up by asking for this one.
      ask();
      yield linesOf(batch, views[batch.slot]);
    }
  } finally {
    // The thread answers in order: what was asked for lands before the file is closed.
    await Promise.allSettled(asked);
    await reader.close();
  }
}

function linesOf(batch: HashedBatch, slot: Buffer): ByteLine[] {
  const n = batch.lineNos.length;
  const out: ByteLine[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const start = batch.starts[i];
    const bytes = start >= 0 ? slot.subarray(start, start + batch.lengths[i]) : EMPTY;
    out[i] = { lineNo: batch.lineNos[i], bytes, key: batch.keys.slice(i * KEY_CHARS, (i + 1) * KEY_CHARS) };
  }
  for (const [i, problem] of batch.problems) {
    out[i].problem = problem;
    out[i].key = undefined;
  }
  for (const [i, bytes] of batch.own) out[i].bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return out;
}

const EMPTY = Buffer.alloc(0);
