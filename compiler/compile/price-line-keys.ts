/**
 * The stored price lines' places by key, in flat arrays (an open-addressing table), for
 * price-line-store.ts.
 *
 * A key is the base64url SHA-1 of a line (27 characters). A Map from key strings made a string per
 * stored line, a million of them at a million cards, each decoded from its chunk and inserted: about
 * 2 s of the main thread per incremental compile (docs/benchmarks.md). Here a key is two numbers of
 * 48 bits (its first 16 characters, 96 of the hash's 160 bits), read from the chunk's bytes in place;
 * two different lines with the same 96 bits are not to be expected (about 2^-57 at a million lines),
 * and a look-up that found one would still be refused: the store decodes the line and checks its
 * whole key before using it.
 *
 * @example
 *   const keys = createKeyIndex(lines);
 *   keys.add(chunkBytes, offset, place)   // false: a key already there
 *   keys.get('Ab3…')                       // the place, or -1
 */

/** The value of each base64url character by its code; -1 for any other. */
const DIGIT = new Int8Array(128).fill(-1);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split('').forEach((c, i) => (DIGIT[c.charCodeAt(0)] = i));

/** Characters of a key read into each of the two numbers (6 bits each: 48 bits, exact in a double). */
const PART = 8;

export interface KeyIndex {
  /** Adds the key whose characters start at `bytes[o]` (a stored line's first bytes) with its place; false when it is already there or is not base64url. */
  add(bytes: Uint8Array, o: number, place: number): boolean;
  /** The place of a key, or -1. */
  get(key: string): number;
  readonly size: number;
  /** The arrays the index is, to hand it to another thread (their buffers transferred) and `keyIndexOf` them there. */
  parts(): KeyIndexParts;
}

/** A KeyIndex as plain arrays: what crosses a thread boundary. */
export interface KeyIndexParts {
  hi: Float64Array;
  lo: Float64Array;
  places: Float64Array;
  size: number;
}

export function createKeyIndex(expected: number): KeyIndex {
  let capacity = 16;
  while (capacity < expected * 2) capacity *= 2;
  // -1: an empty slot.
  return keyIndexOf({ hi: new Float64Array(capacity), lo: new Float64Array(capacity), places: new Float64Array(capacity).fill(-1), size: 0 });
}

/** The index made of `parts` (from createKeyIndex's `parts()`, possibly on another thread). */
export function keyIndexOf(parts: KeyIndexParts): KeyIndex {
  const { hi, lo, places } = parts;
  const capacity = places.length;
  if (capacity === 0 || (capacity & (capacity - 1)) !== 0 || hi.length !== capacity || lo.length !== capacity) throw new Error('key index: arrays of another shape');
  const mask = capacity - 1;
  let size = parts.size;

  /** The slot of (h, l), or of the empty slot where it would go. */
  const slotOf = (h: number, l: number): number => {
    // The key's bits are uniform: its low bits are the slot.
    let s = h & mask;
    while (places[s] !== -1 && (hi[s] !== h || lo[s] !== l)) s = (s + 1) & mask;
    return s;
  };

  return {
    add(bytes, o, place) {
      if (size >= capacity >>> 1) throw new Error(`key index: more than ${capacity >>> 1} keys`);
      let h = 0;
      let l = 0;
      for (let k = 0; k < PART; k++) {
        const a = bytes[o + k];
        const b = bytes[o + PART + k];
        const da = a < 128 ? DIGIT[a] : -1;
        const db = b < 128 ? DIGIT[b] : -1;
        if (da < 0 || db < 0) return false;
        h = h * 64 + da;
        l = l * 64 + db;
      }
      const s = slotOf(h, l);
      if (places[s] !== -1) return false;
      hi[s] = h;
      lo[s] = l;
      places[s] = place;
      size++;
      return true;
    },
    get(key) {
      if (key.length < 2 * PART) return -1;
      let h = 0;
      let l = 0;
      for (let k = 0; k < PART; k++) {
        const a = key.charCodeAt(k);
        const b = key.charCodeAt(PART + k);
        const da = a < 128 ? DIGIT[a] : -1;
        const db = b < 128 ? DIGIT[b] : -1;
        if (da < 0 || db < 0) return -1;
        h = h * 64 + da;
        l = l * 64 + db;
      }
      return places[slotOf(h, l)];
    },
    get size() {
      return size;
    },
    parts: () => ({ hi, lo, places, size }),
  };
}
