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

/** The cards by position (the catalog's order), field by field: what the walks over every card read. */
export interface CardColumns {
  readonly length: number;
  id(i: number): string;
  game(i: number): Game;
  setCode(i: number): string;
  oracleId(i: number): string | null;
  artist(i: number): string | null;
  addedAt(i: number): string;
  watchers(i: number): number;
  /** The whole record (a new object from a table). */
  record(i: number): CardRecord;
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

const KNOWN = new Set(['id', 'game', 'setCode', 'name', 'number', 'rarity', 'artist', 'oracleId', 'imageUrl', 'releasedAt', 'addedAt', 'watchers']);
const CODED = ['game', 'setCode', 'number', 'rarity', 'artist', 'oracleId', 'releasedAt', 'addedAt'] as const;
type Coded = (typeof CODED)[number];
const BYTES = ['id', 'name', 'imageUrl'] as const;
type Bytes = (typeof BYTES)[number];

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
  /** Appends `value`. */
  push(value: string): void {
    const room = this.used + value.length * 3;
    if (room > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(room, this.bytes.length * 2));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    if (this.count === this.ends.length) {
      const grown = new Uint32Array(this.ends.length * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    this.used += this.bytes.write(value, this.used, 'utf8');
    this.ends[this.count++] = this.used;
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
  oracleId(i: number): string | null {
    return this.strings[this.codes.oracleId[i]];
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

/** Builds a CardTable from records added in the catalog's order (ids unique: the load's check, or a stored catalog's). */
export function createCardTableBuilder(expected = 1024): { add(card: CardRecord): void; finish(): CardTable } {
  const strings: (string | null)[] = [null];
  const codeOf = new Map<string, number>();
  const codes = Object.fromEntries(CODED.map((f) => [f, new Uint32Array(expected)])) as Record<Coded, Uint32Array>;
  const text = Object.fromEntries(BYTES.map((f) => [f, new ByteColumn(expected)])) as Record<Bytes, ByteColumn>;
  let nullImage = new Uint8Array(expected);
  let watchers = new Float64Array(expected);
  const extras = new Map<number, string>();
  let count = 0;
  const code = (value: string | null): number => {
    if (value === null) return 0;
    let c = codeOf.get(value);
    if (c === undefined) {
      codeOf.set(value, (c = strings.length));
      strings.push(value);
    }
    return c;
  };
  return {
    add(card) {
      const i = count++;
      if (i === watchers.length) {
        for (const f of CODED) codes[f] = grow(codes[f], i + 1);
        nullImage = grow(nullImage, i + 1);
        watchers = grow(watchers, i + 1);
      }
      for (const f of CODED) codes[f][i] = code(card[f]);
      text.id.push(card.id);
      text.name.push(card.name);
      text.imageUrl.push(card.imageUrl ?? '');
      nullImage[i] = card.imageUrl === null ? 1 : 0;
      watchers[i] = card.watchers;
      let extra: Record<string, unknown> | null = null;
      for (const key in card) {
        if (KNOWN.has(key)) continue;
        (extra ??= {})[key] = (card as unknown as Record<string, unknown>)[key];
      }
      if (extra !== null) extras.set(i, JSON.stringify(extra));
    },
    finish() {
      return new CardTable(strings, codes, text, nullImage, watchers, extras, count);
    },
  };
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
