/**
 * The cards of a catalog in columns outside the JS heap, instead of a million record objects in a
 * Map: what an incremental compile at a million cards spent about 18 s of CPU collecting garbage
 * over (V8 marked those records, about 290 MB, at every full collection) and decoding (the stored
 * catalog's JSON parsed into objects that lived for the whole compile; docs/benchmarks.md).
 *
 * Each field is a column. The ones whose values repeat (game, set code, number, rarity, artist,
 * oracle id, the two dates) are codes into one table of distinct strings; the mostly distinct ones
 * (id, name, image URL) are UTF-8 bytes with their ends; watchers are numbers. Fields beyond the
 * source format's (validate.ts keeps them) are kept as JSON for the few records that have them, so
 * a record comes back exactly as it was stored. Ids are found through an open-addressing hash table
 * in a typed array: ids are ASCII (snapshots/ids.ts), so they are compared with the bytes directly.
 *
 * It is a ReadonlyMap of CardRecord, so every reader of `catalog.cards` works unchanged, but each
 * `get` makes a new record object (short-lived: the collector frees it young). Walks over every
 * card read the columns (`cardColumns`), which make no record at all.
 *
 * @example
 *   const builder = createCardTableBuilder();
 *   builder.add(card);
 *   const cards = builder.finish();
 *   cards.get('mtg-lea-161')?.name   // a new object equal to `card`
 *   cardColumns(cards).setCode(0)    // 'lea', no record made
 */
import type { CardRecord, Game } from '../../snapshots/records.js';
import { CatalogError } from '../../snapshots/errors.js';
import { BYTES, CODED, createCardSlicer, type Bytes, type CardSlice, type Coded } from './card-slices.js';

/** The cards by position (the catalog's order), field by field: what the walks over every card read. */
export interface CardColumns {
  readonly length: number;
  id(i: number): string;
  game(i: number): Game;
  setCode(i: number): string;
  number(i: number): string;
  releasedAt(i: number): string | null;
  oracleId(i: number): string | null;
  artist(i: number): string | null;
  addedAt(i: number): string;
  watchers(i: number): number;
  /** The whole record (a new object from a table). */
  record(i: number): CardRecord;
  /** The order of the ids of the cards at `i` and `j` by code unit (compareText), no string made from a table. */
  compareIds(i: number, j: number): number;
  /** The position of `id`, or -1. */
  indexOf(id: string): number;
  /** True when the card at `i` has the id `id` (no string made). */
  isId(i: number, id: string): boolean;
  /** True when the card at `i` has the id whose ASCII bytes are `bytes[at .. at + length)` (no string made). */
  isIdBytes(i: number, bytes: Uint8Array, at: number, length: number): boolean;
}

/** True when the string `id` is the ASCII bytes `bytes[at .. at + length)`. */
export function bytesAre(id: string, bytes: Uint8Array, at: number, length: number): boolean {
  if (id.length !== length) return false;
  for (let k = 0; k < length; k++) if (bytes[at + k] !== id.charCodeAt(k)) return false;
  return true;
}

/** UTF-8 strings appended one after another, with their ends. */
class ByteColumn {
  bytes: Buffer;
  ends: Uint32Array;
  used = 0;
  count = 0;
  constructor(capacity: number) {
    this.bytes = Buffer.allocUnsafe(Math.max(1024, capacity * 16));
    this.ends = new Uint32Array(Math.max(16, capacity));
  }
  /** Appends the values whose UTF-8 is `bytes`, each ending at `ends[k]` in them (non-decreasing: checked by the caller). */
  append(bytes: Uint8Array, ends: Uint32Array): void {
    const room = this.used + bytes.length;
    if (room > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(room, this.bytes.length * 2));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    this.ends = grow(this.ends, this.count + ends.length);
    this.bytes.set(bytes, this.used);
    const base = this.used;
    const to = this.ends;
    for (let k = 0, c = this.count; k < ends.length; k++) to[c + k] = base + ends[k];
    this.used += bytes.length;
    this.count += ends.length;
  }
  start(i: number): number {
    return i === 0 ? 0 : this.ends[i - 1];
  }
  at(i: number): string {
    return this.bytes.toString('utf8', this.start(i), this.ends[i]);
  }
}

function grow<T extends Uint32Array | Float64Array | Uint8Array>(array: T, need: number): T {
  if (need <= array.length) return array;
  const grown = new (array.constructor as new (n: number) => T)(Math.max(need, array.length * 2));
  grown.set(array);
  return grown;
}

/** FNV-1a over the UTF-16 code units (an ASCII id's are its bytes: hashOfBytes gives the same). */
function hashOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** FNV-1a over `bytes[from .. to)`: hashOf of the ASCII id they hold, with no string made. */
function hashOfBytes(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let k = from; k < to; k++) h = Math.imul(h ^ bytes[k], 0x01000193);
  return h >>> 0;
}

export class CardTable implements ReadonlyMap<string, CardRecord>, CardColumns {
  readonly length: number;
  /** Position + 1 of the id hashed into each slot; 0: empty. */
  readonly #slots: Int32Array;
  readonly #mask: number;

  constructor(
    private readonly strings: readonly (string | null)[],
    private readonly codes: Record<Coded, Uint32Array>,
    private readonly text: Record<Bytes, ByteColumn>,
    /** 1 where imageUrl is null (an empty string is not a URL, but null and '' must not meet). */
    private readonly nullImage: Uint8Array,
    private readonly watcherCounts: Float64Array,
    private readonly extras: ReadonlyMap<number, string>,
    count: number,
  ) {
    this.length = count;
    let size = 16;
    while (size < count * 2) size *= 2;
    this.#slots = new Int32Array(size);
    this.#mask = size - 1;
    const ids = text.id;
    for (let i = 0; i < count; i++) {
      const from = ids.start(i);
      let s = hashOfBytes(ids.bytes, from, ids.ends[i]) & this.#mask;
      while (this.#slots[s] !== 0) {
        if (this.isIdBytes(this.#slots[s] - 1, ids.bytes, from, ids.ends[i] - from)) throw new CatalogError('internal', `card ${this.id(i)} is in the card table twice`);
        s = (s + 1) & this.#mask;
      }
      this.#slots[s] = i + 1;
    }
  }

  get size(): number {
    return this.length;
  }

  isId(i: number, id: string): boolean {
    return i >= 0 && i < this.length && this.#idIs(i, id);
  }

  isIdBytes(i: number, bytes: Uint8Array, at: number, length: number): boolean {
    const col = this.text.id;
    const from = col.start(i);
    if (col.ends[i] - from !== length) return false;
    return col.bytes.compare(bytes, at, at + length, from, col.ends[i]) === 0;
  }

  #idIs(i: number, id: string): boolean {
    const col = this.text.id;
    const from = col.start(i);
    return bytesAre(id, col.bytes, from, col.ends[i] - from);
  }

  indexOf(id: string): number {
    if (typeof id !== 'string') return -1;
    let s = hashOf(id) & this.#mask;
    for (;;) {
      const at = this.#slots[s];
      if (at === 0) return -1;
      if (this.#idIs(at - 1, id)) return at - 1;
      s = (s + 1) & this.#mask;
    }
  }

  id(i: number): string {
    return this.text.id.at(i);
  }
  game(i: number): Game {
    return this.strings[this.codes.game[i]] as Game;
  }
  setCode(i: number): string {
    return this.strings[this.codes.setCode[i]]!;
  }
  number(i: number): string {
    return this.strings[this.codes.number[i]]!;
  }
  releasedAt(i: number): string | null {
    return this.strings[this.codes.releasedAt[i]];
  }
  oracleId(i: number): string | null {
    return this.strings[this.codes.oracleId[i]];
  }
  compareIds(i: number, j: number): number {
    // Ids are ASCII (snapshots/ids.ts): their bytes' order is their code units'.
    const col = this.text.id;
    return col.bytes.compare(col.bytes, col.start(j), col.ends[j], col.start(i), col.ends[i]);
  }
  artist(i: number): string | null {
    return this.strings[this.codes.artist[i]];
  }
  addedAt(i: number): string {
    return this.strings[this.codes.addedAt[i]]!;
  }
  watchers(i: number): number {
    return this.watcherCounts[i];
  }

  record(i: number): CardRecord {
    const s = this.strings;
    const c = this.codes;
    // Keys in sorted order: stableJson (snapshots/codec.ts) then writes it without copying it.
    const record: CardRecord = {
      addedAt: s[c.addedAt[i]]!,
      artist: s[c.artist[i]],
      game: s[c.game[i]] as Game,
      id: this.text.id.at(i),
      imageUrl: this.nullImage[i] === 1 ? null : this.text.imageUrl.at(i),
      name: this.text.name.at(i),
      number: s[c.number[i]]!,
      oracleId: s[c.oracleId[i]],
      rarity: s[c.rarity[i]],
      releasedAt: s[c.releasedAt[i]],
      setCode: s[c.setCode[i]]!,
      watchers: this.watcherCounts[i],
    };
    const extra = this.extras.size === 0 ? undefined : this.extras.get(i);
    return extra === undefined ? record : { ...record, ...(JSON.parse(extra) as object) };
  }

  get(id: string): CardRecord | undefined {
    const i = this.indexOf(id);
    return i < 0 ? undefined : this.record(i);
  }
  has(id: string): boolean {
    return this.indexOf(id) >= 0;
  }
  *keys(): MapIterator<string> {
    for (let i = 0; i < this.length; i++) yield this.id(i);
  }
  *values(): MapIterator<CardRecord> {
    for (let i = 0; i < this.length; i++) yield this.record(i);
  }
  *entries(): MapIterator<[string, CardRecord]> {
    for (let i = 0; i < this.length; i++) {
      const record = this.record(i);
      yield [record.id, record];
    }
  }
  [Symbol.iterator](): MapIterator<[string, CardRecord]> {
    return this.entries();
  }
  forEach(each: (value: CardRecord, key: string, map: ReadonlyMap<string, CardRecord>) => void, thisArg?: unknown): void {
    for (let i = 0; i < this.length; i++) {
      const record = this.record(i);
      each.call(thisArg, record, record.id, this);
    }
  }
}

export interface CardTableBuilder {
  add(card: CardRecord): void;
  /**
   * Appends the cards of a slice made by one card slicer (card-slices.ts), the slices in the order it
   * made them; false (nothing appended) when its values do not fit: a code with no string, ends that
   * go back or past its bytes, a flag not 0 or 1, an extra out of the slice. A builder takes records or
   * slices, never both (their codes would not agree).
   */
  addSlice(slice: CardSlice): boolean;
  finish(): CardTable;
}

/** Builds a CardTable from records, or slices of them, added in the catalog's order (ids unique: the load's check, or a stored catalog's). */
export function createCardTableBuilder(expected = 1024): CardTableBuilder {
  const strings: (string | null)[] = [null];
  let codes = Object.fromEntries(CODED.map((f) => [f, new Uint32Array(expected)])) as Record<Coded, Uint32Array>;
  const text = Object.fromEntries(BYTES.map((f) => [f, new ByteColumn(expected)])) as Record<Bytes, ByteColumn>;
  let nullImage = new Uint8Array(expected);
  let watchers = new Float64Array(expected);
  const extras = new Map<number, string>();
  let count = 0;
  let from: 'records' | 'slices' | null = null;
  const only = (kind: 'records' | 'slices') => {
    if ((from ??= kind) !== kind) throw new CatalogError('internal', 'a card table builder was given both records and slices');
  };
  // Records are taken in slices of their own (one slicer, so their codes run on), RECORD_RUN at a time.
  const slicer = createCardSlicer();
  let pending: CardRecord[] = [];
  const append = (slice: CardSlice): boolean => {
    if (!fits(slice, strings.length)) return false;
    const n = slice.count;
    for (const value of slice.strings) strings.push(value);
    codes = Object.fromEntries(CODED.map((f) => {
      const column = grow(codes[f], count + n);
      column.set(slice.codes[f], count);
      return [f, column];
    })) as Record<Coded, Uint32Array>;
    nullImage = grow(nullImage, count + n);
    nullImage.set(slice.nullImage, count);
    watchers = grow(watchers, count + n);
    watchers.set(slice.watchers, count);
    for (const f of BYTES) text[f].append(slice.text[f].bytes, slice.text[f].ends);
    for (const [at, json] of slice.extras) extras.set(count + at, json);
    count += n;
    return true;
  };
  const flush = () => {
    if (pending.length === 0) return;
    if (!append(slicer.slice(pending))) throw new CatalogError('internal', 'a card slice made here did not fit its table');
    pending = [];
  };
  return {
    add(card) {
      only('records');
      pending.push(card);
      if (pending.length === RECORD_RUN) flush();
    },
    addSlice(slice) {
      only('slices');
      return append(slice);
    },
    finish() {
      flush();
      return new CardTable(strings, codes, text, nullImage, watchers, extras, count);
    },
  };
}

/** Records added one by one are put in the table this many at a time. */
const RECORD_RUN = 4096;

/** True when every value of `slice` fits a table that has `known` strings before it (addSlice). */
function fits(slice: CardSlice, known: number): boolean {
  const n = slice.count;
  const strings = known + slice.strings.length;
  if (!slice.strings.every((s) => typeof s === 'string')) return false;
  for (const f of CODED) {
    const c = slice.codes[f];
    if (c.length !== n) return false;
    for (let i = 0; i < n; i++) if (c[i] >= strings) return false;
  }
  for (const f of BYTES) {
    const { bytes, ends } = slice.text[f];
    if (ends.length !== n) return false;
    let last = 0;
    for (let i = 0; i < n; i++) {
      if (ends[i] < last) return false;
      last = ends[i];
    }
    if (last !== bytes.length) return false;
  }
  if (slice.nullImage.length !== n || slice.watchers.length !== n) return false;
  for (let i = 0; i < n; i++) if (slice.nullImage[i] > 1) return false;
  return slice.extras.every((e) => Array.isArray(e) && Number.isInteger(e[0]) && e[0] >= 0 && e[0] < n && typeof e[1] === 'string');
}

/** The cards of `cards` in a CardTable (its records in its order). */
export function cardTableOf(cards: Iterable<CardRecord>): CardTable {
  const builder = createCardTableBuilder();
  for (const card of cards) builder.add(card);
  return builder.finish();
}

const columnsMemo = new WeakMap<ReadonlyMap<string, CardRecord>, CardColumns>();

/**
 * The columns of `cards`: the table itself, or for a Map of records (a catalog just loaded, a
 * test's) the records in its order read field by field, made once per map.
 */
export function cardColumns(cards: ReadonlyMap<string, CardRecord>): CardColumns {
  if (cards instanceof CardTable) return cards;
  let columns = columnsMemo.get(cards);
  if (columns === undefined) {
    const records = [...cards.values()];
    let positions: Map<string, number> | null = null;
    columns = {
      length: records.length,
      id: (i) => records[i].id,
      game: (i) => records[i].game,
      setCode: (i) => records[i].setCode,
      number: (i) => records[i].number,
      releasedAt: (i) => records[i].releasedAt,
      compareIds: (i, j) => (records[i].id < records[j].id ? -1 : records[i].id > records[j].id ? 1 : 0),
      oracleId: (i) => records[i].oracleId,
      artist: (i) => records[i].artist,
      addedAt: (i) => records[i].addedAt,
      watchers: (i) => records[i].watchers,
      record: (i) => records[i],
      isId: (i, id) => records[i]?.id === id,
      isIdBytes: (i, bytes, at, length) => bytesAre(records[i].id, bytes, at, length),
      indexOf: (id) => (positions ??= new Map(records.map((r, i) => [r.id, i]))).get(id) ?? -1,
    };
    columnsMemo.set(cards, columns);
  }
  return columns;
}
