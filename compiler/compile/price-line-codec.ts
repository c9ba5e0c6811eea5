/**
 * The bytes of a chunk of stored price lines (price-line-store.ts). Binary rather than JSON: a
 * summary is mostly 30 daily prices, and JSON.parse of 100,000 of them cost about 0.5 s of CPU, a
 * tenth of what an incremental compile may spend in all; these bytes decode in a fraction of that.
 *
 * Per line, little-endian: key (27 ASCII bytes, base64url SHA-1), input (24 ASCII bytes: the token
 * of its entity's input fingerprint, object-table.ts entityToken), bytes (u32: the line's length in bytes), entity (u8: 0 card,
 * 1 figure), flags (u8, below), id length (u16), slot (u32: the entity's place in the catalog's order,
 * compile/price-table.ts; NULL_U32 for none) and id (UTF-8), then `end`, range `from` and `to`
 * (10 ASCII bytes each, when present), then the summary when present: lastDate (10 bytes), velocity
 * (f64, when present), the count of recentDaily (u8), then lastCents, previousCents (when present)
 * and recentDaily as u32 (null: 0xFFFFFFFF) or, with WIDE, as f64 (null: NaN). Velocity as f64 keeps
 * the very number summarizePrices returned (-0 included, which JSON would not).
 *
 * @example
 *   const bytes = encodePriceLines(lines);    // or line by line: createPriceLineChunk()
 *   decodePriceLines(bytes)  // the same lines, or null when the bytes are not a well-formed chunk
 */
import { bytesAre } from '../source/card-table.js';
import type { PriceRange } from '../render/summary.js';
import type { LatestPrice, PriceSummary } from '../render/types.js';
import type { PriceLineIdentity } from '../source/prices.js';
import type { PriceLineFacts, StoredPriceLine } from './price-line-store.js';

const KEY_BYTES = 27;
const INPUT_BYTES = 24;
const DAY_BYTES = 10;
const END = 1;
const RANGE = 2;
const SUMMARY = 4;
const PREVIOUS = 8;
const VELOCITY = 16;
const SYNTHETIC = 32;
const WIDE = 64;
const NULL_U32 = 0xffffffff;

const fitsU32 = (c: number | null) => c === null || c < NULL_U32;

function flagsOf(f: PriceLineFacts): number {
  const s = f.summary;
  let flags = (f.end !== null ? END : 0) | (f.range !== null ? RANGE : 0);
  if (s !== null) {
    flags |= SUMMARY | (s.previousCents !== null ? PREVIOUS : 0) | (s.velocity24h !== null ? VELOCITY : 0) | (s.synthetic ? SYNTHETIC : 0);
    if (!(fitsU32(s.lastCents) && fitsU32(s.previousCents) && s.recentDaily.every(fitsU32))) flags |= WIDE;
  }
  return flags;
}

/** Bytes of a line before its id: key, input, bytes, entity, flags, id length and slot. */
const HEAD_BYTES = KEY_BYTES + INPUT_BYTES + 4 + 1 + 1 + 2 + 4;

function sizeOf(line: StoredPriceLine, flags: number): number {
  let n = HEAD_BYTES + Buffer.byteLength(line.facts.id);
  if (flags & END) n += DAY_BYTES;
  if (flags & RANGE) n += 2 * DAY_BYTES;
  if (flags & SUMMARY) {
    const cents = (flags & WIDE) ? 8 : 4;
    n += DAY_BYTES + ((flags & VELOCITY) ? 8 : 0) + 1 + cents * (1 + ((flags & PREVIOUS) ? 1 : 0) + line.facts.summary!.recentDaily.length);
  }
  return n;
}

export function encodePriceLines(lines: readonly StoredPriceLine[]): Buffer {
  const chunk = createPriceLineChunk();
  for (const line of lines) chunk.add(line);
  return Buffer.from(chunk.bytes());
}

/**
 * A chunk's bytes built line by line in one buffer re-used from chunk to chunk, so a compile keeps
 * no line objects until its chunk is full: held for 10,000 lines, each line's facts outlived two
 * young-generation collections and were copied into the old generation as garbage, hundreds of MB
 * at a million cards that only a marking of the whole heap frees.
 */
export interface PriceLineChunk {
  add(line: StoredPriceLine): void;
  /** Appends a line's bytes as a chunk holds them (a stored line kept as it is): `from[start..end)`. */
  addEncoded(from: Buffer, start: number, end: number): void;
  /** The bytes so far (a view: valid until the next add or clear). */
  bytes(): Buffer;
  /** Lines added since the last clear. */
  readonly lines: number;
  clear(): void;
}

export function createPriceLineChunk(): PriceLineChunk {
  let buf = Buffer.allocUnsafeSlow(64 * 1024);
  let used = 0;
  let lines = 0;
  // Stored lines kept as they are come in runs (an unchanged price file keeps its order): the run of
  // encoded bytes is copied once it ends, one Buffer.copy (with its argument checks) per run instead
  // of one per line, a million per compile at a million cards.
  let runFrom: Buffer | null = null;
  let runStart = 0;
  let runEnd = 0;
  const room = (size: number) => {
    if (used + size > buf.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(buf.length * 2, used + size));
      buf.copy(bigger, 0, 0, used);
      buf = bigger;
    }
  };
  const endRun = () => {
    if (runFrom === null) return;
    room(runEnd - runStart);
    used += runFrom.copy(buf, used, runStart, runEnd);
    runFrom = null;
  };
  return {
    add(line) {
      endRun();
      const flags = flagsOf(line.facts);
      const size = sizeOf(line, flags);
      room(size);
      const end = writeLine(buf, used, line, flags);
      if (end !== used + size) throw new Error(`price line chunk: wrote ${end - used} of ${size} bytes`);
      used = end;
      lines++;
    },
    addEncoded(from, start, end) {
      if (from !== runFrom || start !== runEnd) {
        endRun();
        runFrom = from;
        runStart = start;
      }
      runEnd = end;
      lines++;
    },
    bytes: () => {
      endRun();
      return buf.subarray(0, used);
    },
    get lines() {
      return lines;
    },
    clear() {
      runFrom = null;
      used = 0;
      lines = 0;
    },
  };
}

/** Writes one line at `o`; returns the offset after it. */
function writeLine(buf: Buffer, o: number, line: StoredPriceLine, fl: number): number {
  const day = (d: string) => {
    o += buf.write(d, o, DAY_BYTES, 'latin1');
  };
  const { key, input, bytes: size, facts: f } = line;
  if (key.length !== KEY_BYTES || input.length !== INPUT_BYTES) throw new Error(`price line chunk: a key of ${key.length} or an input of ${input.length} characters`);
  o += buf.write(key, o, KEY_BYTES, 'latin1');
  o += buf.write(input, o, INPUT_BYTES, 'latin1');
  o = buf.writeUInt32LE(size, o);
  o = buf.writeUInt8(f.entity === 'card' ? 0 : 1, o);
  o = buf.writeUInt8(fl, o);
  const idBytes = Buffer.byteLength(f.id);
  o = buf.writeUInt16LE(idBytes, o);
  o = buf.writeUInt32LE(line.slot >= 0 && line.slot < NULL_U32 ? line.slot : NULL_U32, o);
  o += buf.write(f.id, o, idBytes, 'utf8');
  if (fl & END) day(f.end!);
  if (fl & RANGE) {
    day(f.range!.from);
    day(f.range!.to);
  }
  const s = f.summary;
  if (s === null) return o;
  day(s.lastDate);
  if (fl & VELOCITY) o = buf.writeDoubleLE(s.velocity24h!, o);
  o = buf.writeUInt8(s.recentDaily.length, o);
  const cents = (c: number | null) => {
    if (fl & WIDE) o = buf.writeDoubleLE(c === null ? NaN : c, o);
    else o = buf.writeUInt32LE(c === null ? NULL_U32 : c, o);
  };
  cents(s.lastCents);
  if (fl & PREVIOUS) cents(s.previousCents);
  for (const c of s.recentDaily) cents(c);
  return o;
}

/** The lines of a chunk, or null when the bytes do not decode to well-formed lines exactly. */
export function decodePriceLines(buf: Buffer): StoredPriceLine[] | null {
  const lines: StoredPriceLine[] = [];
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  for (let o = 0; o < buf.length; ) {
    const d = decodePriceLineAt(buf, view, o);
    if (d === null) return null;
    lines.push({ key: d.key, input: d.input, bytes: d.bytes, slot: d.slot, facts: factsOfDecoded(d) });
    o = d.next;
  }
  return lines;
}

/**
 * A line decoded from a chunk: its entity, id, last day and price range, its summary but the recent
 * days (`latest`; recentDailyOf reads them when they are wanted: only the sparklines feed shows them,
 * for 50 entities), key, input token and length, and where its bytes are in the chunk (`chunk` from
 * `start` to `next`, where the next line starts). One object per line: at a million lines, a line
 * object, a facts object, a wrapper, a view of its bytes and an array of 30 recent days each were a
 * measurable part of the collector's work (docs/benchmarks.md).
 */
export interface DecodedPriceLine extends PriceLineIdentity {
  /** The slot stored with the line (StoredPriceLine.slot), -1 for none. */
  slot: number;
  range: PriceRange;
  latest: LatestPrice | null;
  key: string;
  input: string;
  bytes: number;
  chunk: Buffer;
  start: number;
  next: number;
  /** Where the recent days start in `chunk` (-1 without a summary), how many, and whether as f64. */
  recentAt: number;
  recentCount: number;
  recentWide: boolean;
  /**
   * The line's number in its store, in stored order (-1 when not read from one), and whether the
   * compile that last wrote the store accepted it (price-line-store.ts: an appended store keeps the
   * lines it superseded).
   */
  ordinal: number;
  live: boolean;
}

/** The recent days of a decoded line's summary (readLineAt checked them), [] without one. */
export function recentDailyOf(d: Pick<DecodedPriceLine, 'chunk' | 'recentAt' | 'recentCount' | 'recentWide'>): (number | null)[] {
  const out: (number | null)[] = new Array(d.recentCount);
  const view = new DataView(d.chunk.buffer, d.chunk.byteOffset, d.chunk.byteLength);
  const width = d.recentWide ? 8 : 4;
  for (let k = 0; k < d.recentCount; k++) out[k] = centsAt(view, d.recentAt + k * width, d.recentWide);
  return out;
}

/** A stored cents value at `at`: u32 (null: NULL_U32) or, `wide`, f64 (null: NaN). */
function centsAt(view: DataView, at: number, wide: boolean): number | null {
  if (wide) {
    const c = view.getFloat64(at, true);
    return Number.isNaN(c) ? null : c;
  }
  const c = view.getUint32(at, true);
  return c === NULL_U32 ? null : c;
}

/** The facts of a decoded line as priceLineFacts gives them (the summary with its recent days). */
export function factsOfDecoded(d: DecodedPriceLine): PriceLineFacts {
  const l = d.latest;
  // The key order of summarizePrices' result, so the object is the same one a parse gives.
  const summary: PriceSummary | null = l === null ? null
    : { lastDate: l.lastDate, lastCents: l.lastCents, previousCents: l.previousCents, velocity24h: l.velocity24h, recentDaily: recentDailyOf(d), synthetic: l.synthetic };
  return { entity: d.entity, id: d.id, end: d.end, range: d.range, summary };
}

/**
 * The offset of the line after the one that starts at byte `o` of a chunk, read from its lengths and
 * flags alone (its key is the KEY_BYTES at `o`), or -1 when they do not fit the chunk. Only
 * decodePriceLineAt checks a line whole: the store indexes a chunk with this and decodes a line when
 * it is asked for.
 */
export function skipPriceLineAt(buf: Buffer, view: DataView, o: number): number {
  const n = buf.length;
  if (o + HEAD_BYTES > n) return -1;
  o += KEY_BYTES + INPUT_BYTES;
  const fl = buf[o + 5];
  o += HEAD_BYTES - KEY_BYTES - INPUT_BYTES + view.getUint16(o + 6, true);
  o += (((fl & END) ? 1 : 0) + ((fl & RANGE) ? 2 : 0)) * DAY_BYTES;
  if (fl & SUMMARY) {
    o += DAY_BYTES + ((fl & VELOCITY) ? 8 : 0);
    if (o + 1 > n) return -1;
    const count = buf[o++];
    o += ((fl & WIDE) ? 8 : 4) * (1 + ((fl & PREVIOUS) ? 1 : 0) + count);
  }
  return o <= n ? o : -1;
}

export const PRICE_LINE_KEY_BYTES = KEY_BYTES;

/**
 * A stored line's fields as readLineAt finds them: numbers, offsets into the chunk and the day
 * strings (shared: dayAt), filled in place, so a line whose facts go straight into columns (an
 * unchanged line of an unchanged catalog: entity-phase.ts `take`) costs no object and no string but
 * its token. Cents and velocity absent are NaN.
 */
export interface LineFields {
  chunk: Buffer;
  start: number;
  next: number;
  bytes: number;
  entityCode: number;
  /** The slot stored with the line, -1 for none. */
  slot: number;
  idAt: number;
  idBytes: number;
  end: string | null;
  from: string | null;
  to: string | null;
  /** Null without a summary (then every field below is NaN, 0 or false). */
  lastDate: string | null;
  lastCents: number;
  previousCents: number;
  velocity: number;
  synthetic: boolean;
  recentAt: number;
  recentCount: number;
  recentWide: boolean;
  /** The line's number in its store (DecodedPriceLine.ordinal), set by the store that found it. */
  ordinal: number;
}

export function emptyLineFields(): LineFields {
  return {
    chunk: Buffer.alloc(0), start: 0, next: 0, bytes: 0, entityCode: 0, slot: -1, idAt: 0, idBytes: 0, end: null, from: null, to: null,
    lastDate: null, lastCents: NaN, previousCents: NaN, velocity: NaN, synthetic: false, recentAt: -1, recentCount: 0, recentWide: false, ordinal: -1,
  };
}

/**
 * Reads the line that starts at byte `o` of a chunk into `out`; false when the bytes there are not a
 * well-formed line (`out` is then partly written). `view` is a DataView over `buf`. Every check of a
 * stored line is here: decodePriceLineAt builds its object from these fields.
 */
export function readLineAt(buf: Buffer, view: DataView, o: number, out: LineFields): boolean {
  const n = buf.length;
  out.chunk = buf;
  out.start = o;
  // Bounds are checked before each group of reads: a short or overlong chunk is refused, not misread.
  if (o + HEAD_BYTES > n) return false;
  o += KEY_BYTES + INPUT_BYTES;
  out.bytes = view.getUint32(o, true);
  const entityCode = buf[o + 4];
  const fl = buf[o + 5];
  const idBytes = view.getUint16(o + 6, true);
  const storedSlot = view.getUint32(o + 8, true);
  o += 12;
  if (entityCode > 1 || fl >= 128 || o + idBytes > n) return false;
  out.entityCode = entityCode;
  out.slot = storedSlot === NULL_U32 ? -1 : storedSlot;
  out.idAt = o;
  out.idBytes = idBytes;
  o += idBytes;
  const days = ((fl & END) ? 1 : 0) + ((fl & RANGE) ? 2 : 0) + ((fl & SUMMARY) ? 1 : 0);
  if (o + days * DAY_BYTES > n) return false;
  out.end = null;
  out.from = null;
  out.to = null;
  if (fl & END) {
    if ((out.end = dayAt(buf, o)) === null) return false;
    o += DAY_BYTES;
  }
  if (fl & RANGE) {
    if ((out.from = dayAt(buf, o)) === null || (out.to = dayAt(buf, o + DAY_BYTES)) === null) return false;
    o += 2 * DAY_BYTES;
  }
  out.lastDate = null;
  out.lastCents = NaN;
  out.previousCents = NaN;
  out.velocity = NaN;
  out.synthetic = false;
  out.recentAt = -1;
  out.recentCount = 0;
  const wide = (fl & WIDE) !== 0;
  out.recentWide = wide;
  if (fl & SUMMARY) {
    const lastDate = dayAt(buf, o);
    if (lastDate === null) return false;
    o += DAY_BYTES;
    if (o + ((fl & VELOCITY) ? 8 : 0) + 1 > n) return false;
    if (fl & VELOCITY) {
      const velocity = view.getFloat64(o, true);
      o += 8;
      if (!Number.isFinite(velocity)) return false;
      out.velocity = velocity;
    }
    const recentCount = buf[o++];
    const width = wide ? 8 : 4;
    const values = 1 + ((fl & PREVIOUS) ? 1 : 0) + recentCount;
    if (o + width * values > n) return false;
    // Every wide value is checked here (a non-negative safe integer, or NaN for null; any u32 is
    // valid), so recentDailyOf reads the recent days later without checks.
    if (wide) {
      for (let k = 0, at = o; k < values; k++, at += width) {
        const c = view.getFloat64(at, true);
        if (!Number.isNaN(c) && !(Number.isSafeInteger(c) && c >= 0)) return false;
      }
    }
    const lastCents = centsAt(view, o, wide);
    o += width;
    if (fl & PREVIOUS) {
      const previousCents = centsAt(view, o, wide);
      o += width;
      if (previousCents === null) return false;
      out.previousCents = previousCents;
    }
    if (lastCents === null) return false;
    out.lastDate = lastDate;
    out.lastCents = lastCents;
    out.synthetic = (fl & SYNTHETIC) !== 0;
    out.recentAt = o;
    out.recentCount = recentCount;
    o += width * recentCount;
  } else if (fl & (PREVIOUS | VELOCITY | SYNTHETIC | WIDE)) return false;
  out.next = o;
  return true;
}

/** Whether the line read into `f` has the key `key` (its first KEY_BYTES, compared in place). */
export function keyIs(f: LineFields, key: string): boolean {
  if (key.length !== KEY_BYTES) return false;
  const buf = f.chunk;
  for (let i = 0, o = f.start; i < KEY_BYTES; i++) if (buf[o + i] !== key.charCodeAt(i)) return false;
  return true;
}

/** Whether the line read into `f` is for the entity id `id` (its UTF-8 compared in place; an id of other than ASCII characters never is). */
export function idIs(f: LineFields, id: string): boolean {
  return bytesAre(id, f.chunk, f.idAt, f.idBytes);
}

/** The input token of the line read into `f`. */
export function tokenOf(f: LineFields): string {
  return f.chunk.toString('latin1', f.start + KEY_BYTES, f.start + KEY_BYTES + INPUT_BYTES);
}

/** Scratch fields of decodePriceLineAt (one line at a time on a thread). */
const scratch = emptyLineFields();

/**
 * The line that starts at byte `o` of a chunk and the offset of the next one, or null when the bytes
 * there are not a well-formed line. `view` is a DataView over `buf`.
 */
export function decodePriceLineAt(buf: Buffer, view: DataView, o: number): DecodedPriceLine | null {
  const f = scratch;
  if (!readLineAt(buf, view, o, f)) return null;
  const nullable = (c: number) => (Number.isNaN(c) ? null : c);
  const latest: LatestPrice | null = f.lastDate === null ? null
    : { lastDate: f.lastDate, lastCents: f.lastCents, previousCents: nullable(f.previousCents), velocity24h: nullable(f.velocity), synthetic: f.synthetic };
  return {
    entity: f.entityCode === 0 ? 'card' : 'figure',
    id: buf.toString('utf8', f.idAt, f.idAt + f.idBytes),
    slot: f.slot,
    end: f.end,
    range: f.from === null ? null : { from: f.from, to: f.to! },
    latest,
    key: buf.toString('latin1', o, o + KEY_BYTES),
    input: tokenOf(f),
    bytes: f.bytes,
    chunk: buf,
    start: o,
    next: f.next,
    recentAt: f.recentAt,
    recentCount: f.recentCount,
    recentWide: f.recentWide,
    ordinal: -1,
    live: true,
  };
}

/**
 * The days of a compile are a few hundred strings: one per day, not four per line (at a million
 * lines, 4 million short strings). Keyed by the day's number YYYYMMDD read from its digits.
 */
const dayStrings = new Map<number, string>();

/** The `YYYY-MM-DD` at `o`, or null when the bytes there are not digits and dashes in that shape. */
function dayAt(buf: Buffer, o: number): string | null {
  let n = 0;
  for (let i = 0; i < DAY_BYTES; i++) {
    const c = buf[o + i];
    if (i === 4 || i === 7) {
      if (c !== 45) return null;
    } else if (c >= 48 && c <= 57) n = n * 10 + (c - 48);
    else return null;
  }
  let day = dayStrings.get(n);
  if (day === undefined) {
    day = buf.toString('latin1', o, o + DAY_BYTES);
    if (dayStrings.size < 100_000) dayStrings.set(n, day);
  }
  return day;
}
