/**
 * Sort helpers shared by the list renderers. Every order here is total and locale-independent
 * (plain UTF-16 code-unit comparison, never localeCompare), so a compile on any machine and any ICU
 * version gives byte-identical documents.
 */

/** Code-unit string order: deterministic everywhere, unlike `localeCompare`. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Newest first; dates and canonical instants compare correctly as text (see as-of.ts). */
export function compareDesc(a: string, b: string): number {
  return compareText(b, a);
}

/** Oldest first, unknown dates (null) last: a release date the source does not give sorts after every known one. */
export function compareAscNullsLast(a: string | null, b: string | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return compareText(a, b);
}

/** Newest first, unknown dates (null) last. */
export function compareDescNullsLast(a: string | null, b: string | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return compareText(b, a);
}

type Token = string | { digits: string };

/**
 * Splits a collector number into digit runs and text runs ("10a" → [10, "a"], "OP01-001" →
 * ["OP", 1, "-", 1]). Leading zeros are dropped from digit runs so "007" sorts as 7; digit runs are
 * compared by length then text, which is numeric order without Number/BigInt overflow.
 */
function tokenize(value: string): Token[] {
  const tokens: Token[] = [];
  for (const match of value.matchAll(/(\d+)|(\D+)/g)) {
    if (match[1] !== undefined) tokens.push({ digits: match[1].replace(/^0+(?=\d)/, '') });
    else tokens.push(match[2]);
  }
  return tokens;
}

function compareTokens(a: Token[], b: Token[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (typeof x !== 'string' && typeof y !== 'string') {
      const byLength = x.digits.length - y.digits.length;
      if (byLength !== 0) return byLength;
      const byDigits = compareText(x.digits, y.digits);
      if (byDigits !== 0) return byDigits;
    } else if (typeof x === 'string' && typeof y === 'string') {
      const byText = compareText(x, y);
      if (byText !== 0) return byText;
    } else {
      // A number before text at the same position: "12" < "★12", "1" < "a".
      return typeof x === 'string' ? 1 : -1;
    }
  }
  return a.length - b.length;
}

/**
 * Natural order of collector numbers: "2" < "10" < "10a" < "11". Numbers equal as numbers but
 * spelled differently ("01" and "1") fall back to plain text order, so the order stays total.
 *
 * Sorting n items with this comparator re-tokenizes on every comparison; `naturalKey` lets a caller
 * tokenize once per item instead (decorate-sort-undecorate).
 */
export function compareNatural(a: string, b: string): number {
  return compareNaturalKeys(naturalKey(a), naturalKey(b));
}

export interface NaturalKey {
  raw: string;
  tokens: Token[];
}

export function naturalKey(value: string): NaturalKey {
  return { raw: value, tokens: tokenize(value) };
}

export function compareNaturalKeys(a: NaturalKey, b: NaturalKey): number {
  return compareTokens(a.tokens, b.tokens) || compareText(a.raw, b.raw);
}

/**
 * The first `k` items of `items` in `compare` order: `[...items].sort(compare).slice(0, k)` for a
 * total order (the feeds' orders all end in the id), without sorting the whole catalog.
 *
 * @example topK([5, 1, 4, 2, 3], 2, (a, b) => a - b)  // [1, 2]
 */
export function topK<T>(items: Iterable<T>, k: number, compare: (a: T, b: T) => number): T[] {
  const top = createTopK(k, compare);
  for (const item of items) top.offer(item);
  return top.sorted();
}

/**
 * topK as items come: keeps the k best offered so far and nothing else, so a feed over a million
 * cards never holds a million candidates (they were each feed's largest allocation). A heap keeps
 * them with the one that sorts last on top; most items are rejected by one comparison with it, so
 * a feed of 500 over 100,000 cards costs about one comparison per card instead of 17.
 *
 * @example
 *   const top = createTopK(2, (a: number, b: number) => a - b);
 *   for (const n of [5, 1, 4, 2, 3]) top.offer(n);
 *   top.sorted()  // [1, 2]
 */
export function createTopK<T>(k: number, compare: (a: T, b: T) => number): { offer(item: T): void; admits(item: T): boolean; sorted(): T[] } {
  const heap: T[] = [];
  // heap[0] sorts last among the kept items: a parent never sorts before its children.
  const siftDown = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let last = i;
      if (l < heap.length && compare(heap[l], heap[last]) > 0) last = l;
      if (r < heap.length && compare(heap[r], heap[last]) > 0) last = r;
      if (last === i) return;
      [heap[i], heap[last]] = [heap[last], heap[i]];
      i = last;
    }
  };
  return {
    offer(item) {
      if (heap.length < k) {
        heap.push(item);
        let i = heap.length - 1;
        while (i > 0) {
          const parent = (i - 1) >> 1;
          if (compare(heap[i], heap[parent]) <= 0) break;
          [heap[i], heap[parent]] = [heap[parent], heap[i]];
          i = parent;
        }
      } else if (k > 0 && compare(item, heap[0]) < 0) {
        heap[0] = item;
        siftDown(0);
      }
    },
    /** Whether offering `item` now would keep it (a caller can then skip building the item it keeps). */
    admits: (item) => heap.length < k || (k > 0 && compare(item, heap[0]) < 0),
    sorted: () => [...heap].sort(compare),
  };
}
