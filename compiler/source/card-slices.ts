/**
 * Cards as slices of the card table's columns (card-table.ts), and a slice as one byte buffer: how
 * the stored catalog keeps its cards (compiler/compile/catalog-frames.ts), so that taking it copies
 * arrays into the table instead of parsing a million records' JSON and dropping each record once it
 * is in the table (at a million cards, 3.6 s of parsing and 2.5 s of garbage collection of the 8.4 s
 * the catalog read kept the main thread busy, docs/benchmarks.md).
 *
 * The coded fields' codes run on from slice to slice: each slice carries only the strings first used
 * in it, appended to the table's strings in order, so a code in any slice is the table's code.
 *
 * The bytes of a slice, in the host's byte order (the typed arrays are views on them; little-endian on
 * every host this project runs on), every array at a multiple of its element size:
 *   u32 count, u32 strings JSON bytes, u32 extras JSON bytes, u32 id bytes, u32 name bytes,
 *   u32 image URL bytes, u32 0, u32 0                                      (32 bytes)
 *   the codes: CODED.length × count u32, field by field
 *   watchers: count f64
 *   the ends of id, name and image URL: 3 × count u32, relative to each field's bytes
 *   nullImage: count u8
 *   the new strings (a JSON array), the extras (a JSON array of [position, JSON]), the id, name and
 *   image URL bytes
 *
 * @example
 *   const slicer = createCardSlicer();
 *   const bytes = encodeCardSlice(slicer.slice(records));   // written
 *   builder.addSlice(decodeCardSlice(bytes)!);              // read back into a table
 */
import type { CardRecord } from '../../snapshots/records.js';

/** The fields kept as codes into the table's strings (null is code 0). */
export const CODED = ['game', 'setCode', 'number', 'rarity', 'artist', 'oracleId', 'releasedAt', 'addedAt'] as const;
export type Coded = (typeof CODED)[number];
/** The fields kept as UTF-8 bytes with their ends. */
export const BYTES = ['id', 'name', 'imageUrl'] as const;
export type Bytes = (typeof BYTES)[number];
/** Every field of the source format (validate.ts); any other is kept as JSON, in `extras`. */
export const KNOWN = new Set<string>(['id', 'game', 'setCode', 'name', 'number', 'rarity', 'artist', 'oracleId', 'imageUrl', 'releasedAt', 'addedAt', 'watchers']);

/** Cards in a run of positions, field by field. */
export interface CardSlice {
  count: number;
  /** The strings first used in this slice, in the order of their codes. */
  strings: string[];
  codes: Record<Coded, Uint32Array>;
  /** Each field's bytes and the end of each card's value in them. */
  text: Record<Bytes, { bytes: Uint8Array; ends: Uint32Array }>;
  /** 1 where imageUrl is null (its bytes are then empty). */
  nullImage: Uint8Array;
  watchers: Float64Array;
  /** [position in the slice, the JSON of the fields KNOWN does not name]. */
  extras: [number, string][];
}

/** Makes slices of records given in the catalog's order, the codes running on from one slice to the next. */
export function createCardSlicer(): { slice(records: readonly CardRecord[]): CardSlice } {
  const codeOf = new Map<string, number>();
  let next = 1;
  return {
    slice(records) {
      const n = records.length;
      const strings: string[] = [];
      const code = (value: string | null): number => {
        if (value === null) return 0;
        let c = codeOf.get(value);
        if (c === undefined) {
          codeOf.set(value, (c = next++));
          strings.push(value);
        }
        return c;
      };
      const codes = Object.fromEntries(CODED.map((f) => [f, new Uint32Array(n)])) as Record<Coded, Uint32Array>;
      const values = Object.fromEntries(BYTES.map((f) => [f, [] as string[]])) as Record<Bytes, string[]>;
      const nullImage = new Uint8Array(n);
      const watchers = new Float64Array(n);
      const extras: [number, string][] = [];
      for (let i = 0; i < n; i++) {
        const card = records[i];
        for (const f of CODED) codes[f][i] = code(card[f]);
        values.id.push(card.id);
        values.name.push(card.name);
        values.imageUrl.push(card.imageUrl ?? '');
        nullImage[i] = card.imageUrl === null ? 1 : 0;
        watchers[i] = card.watchers;
        let extra: Record<string, unknown> | null = null;
        for (const key in card) {
          if (KNOWN.has(key)) continue;
          (extra ??= {})[key] = (card as unknown as Record<string, unknown>)[key];
        }
        if (extra !== null) extras.push([i, JSON.stringify(extra)]);
      }
      const text = Object.fromEntries(BYTES.map((f) => [f, utf8WithEnds(values[f])])) as CardSlice['text'];
      return { count: n, strings, codes, text, nullImage, watchers, extras };
    },
  };
}

function utf8WithEnds(values: readonly string[]): { bytes: Uint8Array; ends: Uint32Array } {
  const ends = new Uint32Array(values.length);
  let used = 0;
  for (let i = 0; i < values.length; i++) ends[i] = used += Buffer.byteLength(values[i], 'utf8');
  const bytes = Buffer.allocUnsafeSlow(used);
  let at = 0;
  for (const value of values) at += bytes.write(value, at, 'utf8');
  return { bytes, ends };
}

const HEAD = 32;

/** Where each part of a slice of `count` cards starts, after the head. */
function fixedParts(count: number) {
  const codes = HEAD;
  const watchers = codes + CODED.length * 4 * count;
  const ends = watchers + 8 * count;
  const nullImage = ends + BYTES.length * 4 * count;
  return { codes, watchers, ends, nullImage, variable: nullImage + count };
}

/** The slice as one buffer (the layout in the header comment). */
export function encodeCardSlice(slice: CardSlice): Buffer {
  const n = slice.count;
  const strings = Buffer.from(JSON.stringify(slice.strings), 'utf8');
  const extras = Buffer.from(JSON.stringify(slice.extras), 'utf8');
  const at = fixedParts(n);
  const variable = [strings, extras, ...BYTES.map((f) => slice.text[f].bytes)];
  const out = Buffer.alloc(at.variable + variable.reduce((sum, b) => sum + b.length, 0));
  const head = new Uint32Array(out.buffer, out.byteOffset, HEAD / 4);
  head.set([n, strings.length, extras.length, ...BYTES.map((f) => slice.text[f].bytes.length)]);
  const put = (array: ArrayBufferView, offset: number) => out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), offset);
  CODED.forEach((f, k) => put(slice.codes[f], at.codes + k * 4 * n));
  put(slice.watchers, at.watchers);
  BYTES.forEach((f, k) => put(slice.text[f].ends, at.ends + k * 4 * n));
  put(slice.nullImage, at.nullImage);
  let offset = at.variable;
  for (const part of variable) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * The slice in `bytes`, its arrays views of them (of a copy when they do not start at a multiple of
 * 8), or null when the bytes are not one whole slice. The values are not checked here: the table's
 * `addSlice` does.
 */
export function decodeCardSlice(bytes: Uint8Array): CardSlice | null {
  if (bytes.byteLength < HEAD) return null;
  const frame = bytes.byteOffset % 8 === 0 ? bytes : new Uint8Array(bytes);
  const head = new Uint32Array(frame.buffer, frame.byteOffset, HEAD / 4);
  const [n, stringsLength, extrasLength, ...lengths] = head;
  const at = fixedParts(n);
  const sizes = [stringsLength, extrasLength, ...lengths.slice(0, BYTES.length)];
  if (at.variable + sizes.reduce((sum, s) => sum + s, 0) !== frame.byteLength) return null;
  const base = frame.byteOffset;
  const u32 = (offset: number) => new Uint32Array(frame.buffer, base + offset, n);
  const parts: Uint8Array[] = [];
  let offset = at.variable;
  for (const size of sizes) {
    parts.push(frame.subarray(offset, offset + size));
    offset += size;
  }
  const [stringsJson, extrasJson, ...texts] = parts;
  const strings: unknown = JSON.parse(Buffer.from(stringsJson.buffer, stringsJson.byteOffset, stringsJson.byteLength).toString('utf8'));
  const extras: unknown = JSON.parse(Buffer.from(extrasJson.buffer, extrasJson.byteOffset, extrasJson.byteLength).toString('utf8'));
  if (!Array.isArray(strings) || !Array.isArray(extras)) return null;
  return {
    count: n,
    strings: strings as string[],
    codes: Object.fromEntries(CODED.map((f, k) => [f, u32(at.codes + k * 4 * n)])) as Record<Coded, Uint32Array>,
    text: Object.fromEntries(BYTES.map((f, k) => [f, { bytes: texts[k], ends: u32(at.ends + k * 4 * n) }])) as CardSlice['text'],
    nullImage: frame.subarray(at.nullImage, at.nullImage + n),
    watchers: new Float64Array(frame.buffer, base + at.watchers, n),
    extras: extras as [number, string][],
  };
}
