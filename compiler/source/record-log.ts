/**
 * Records of a kind the compile only walks in source order (binders, activity events, pull
 * observations), kept compressed outside the JS heap until the aggregates walk them: a record is
 * appended as a JSON line, every BLOCK_CHARS of lines are deflated into one buffer, and each walk
 * inflates and parses the blocks one at a time. At a million cards these three kinds were about
 * 300 MB of the main thread's heap through the whole entity phase, which needs none of them; as
 * deflated blocks they are about a tenth of that, and no collection walks them.
 *
 * A walk yields fresh objects equal to the records appended (JSON round trip: the records are
 * parsed JSON already), so a consumer may keep what it is given.
 *
 * @example
 *   const binders = createRecordLog<BinderRecord>();
 *   binders.push(binder);
 *   for (const b of binders) render(b);   // as many walks as needed, in push order
 */
import { deflateRawSync, inflateRawSync, constants } from 'node:zlib';

/** What a consumer reads: an array satisfies it too (tests and small callers pass arrays). */
export interface RecordList<T> extends Iterable<T> {
  readonly length: number;
}

export interface RecordLog<T> extends RecordList<T> {
  push(record: T): void;
  /** Its blocks and open lines as they are, for a stored catalog (compile/stored-catalog.ts). */
  saved(): SavedRecordLog;
}

/** A record log's state: the deflated blocks, the lines not yet in a block, the record count. */
export interface SavedRecordLog {
  blocks: Uint8Array[];
  open: string[];
  length: number;
}

/** Characters of JSON lines per deflated block: large enough to compress well, small enough to walk in steps. */
const BLOCK_CHARS = 256 * 1024;
/** Bytes of lines a walk parses at once, at least (up to the end of the line they end in). */
const PIECE_BYTES = 32 * 1024;
const NEWLINE = 0x0a;

/** A new log, or one that continues `from` (its blocks are taken as they are: not copied, not deflated again). */
export function createRecordLog<T>(from?: SavedRecordLog): RecordLog<T> {
  const blocks: Uint8Array[] = from ? [...from.blocks] : [];
  let open: string[] = from ? [...from.open] : [];
  let openChars = open.reduce((n, line) => n + line.length + 1, 0);
  let length = from?.length ?? 0;
  const seal = () => {
    // Level 1: the blocks are read back a few times per compile, never stored.
    blocks.push(deflateRawSync(open.join('\n'), { level: 1, strategy: constants.Z_DEFAULT_STRATEGY }));
    open = [];
    openChars = 0;
  };
  return {
    get length() {
      return length;
    },
    push(record) {
      const line = JSON.stringify(record);
      open.push(line);
      openChars += line.length + 1;
      length += 1;
      if (openChars >= BLOCK_CHARS) seal();
    },
    saved: () => ({ blocks: [...blocks], open: [...open], length }),
    *[Symbol.iterator]() {
      // The blocks sealed when the walk starts, then the open lines (a push during a walk is not seen).
      const sealed = blocks.length;
      const tail = open.slice();
      for (let i = 0; i < sealed; i++) {
        // One parse per piece of about PIECE_BYTES of whole lines, as an array: no string per line,
        // one call instead of one per record (a JSON line holds no raw newline, so the newlines
        // between lines are exactly the separators). Not one per block: a block's 256 KB as one string
        // is a large object V8 maps anew, two bytes a character once one is not Latin-1; in pieces a
        // walk of the million-card catalog's logs took 0.4-0.7 of the time (docs/benchmarks.md).
        const bytes = inflateRawSync(blocks[i]);
        for (let from = 0; from < bytes.length; ) {
          let end = from + PIECE_BYTES >= bytes.length ? bytes.length : bytes.indexOf(NEWLINE, from + PIECE_BYTES);
          if (end < 0) end = bytes.length;
          const records = JSON.parse(`[${bytes.toString('utf8', from, end).replaceAll('\n', ',')}]`) as T[];
          for (const record of records) yield record;
          from = end + 1;
        }
      }
      for (const line of tail) yield JSON.parse(line) as T;
    },
  };
}
