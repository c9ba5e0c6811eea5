/**
 * SHA-256 digests of a bulk job's objects in one flat byte array (32 bytes each, in the job's order)
 * instead of one 64-character string each: at a million cards the cards file's digests are 32 MB that
 * move to the bulk thread without a copy, where the strings were about 80 MB on each side and a copy
 * between them.
 */
const SIZE = 32;

/** Digests appended one at a time, from their hex form or as their 32 bytes. */
export function createDigestList(): { add(hex: string): void; addBytes(digest: Uint8Array): void; finish(): Uint8Array } {
  let bytes = Buffer.allocUnsafe(SIZE * 1024);
  let n = 0;
  const room = () => {
    if ((n + 1) * SIZE > bytes.length) {
      const grown = Buffer.allocUnsafe(bytes.length * 2);
      bytes.copy(grown, 0, 0, n * SIZE);
      bytes = grown;
    }
  };
  return {
    add(hex) {
      room();
      if (bytes.write(hex, n * SIZE, SIZE, 'hex') !== SIZE) throw new Error(`not a SHA-256 in hex: ${hex}`);
      n++;
    },
    addBytes(digest) {
      if (digest.length !== SIZE) throw new Error(`not a SHA-256: ${digest.length} bytes`);
      room();
      bytes.set(digest, n * SIZE);
      n++;
    },
    finish: () => new Uint8Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + n * SIZE)),
  };
}

/** The digests in the order of `order` (positions into `digests`). */
export function reorderDigests(digests: Uint8Array, order: readonly number[]): Uint8Array {
  const out = new Uint8Array(order.length * SIZE);
  order.forEach((from, to) => out.set(digests.subarray(from * SIZE, (from + 1) * SIZE), to * SIZE));
  return out;
}

export function digestCount(digests: Uint8Array): number {
  return digests.length / SIZE;
}

/** Digest `i` in hex. */
export function digestHex(digests: Uint8Array, i: number): string {
  return Buffer.from(digests.buffer, digests.byteOffset + i * SIZE, SIZE).toString('hex');
}

/** True when digest `i` of `a` equals digest `j` of `b`. */
export function sameDigest(a: Uint8Array, i: number, b: Uint8Array, j: number): boolean {
  const x = i * SIZE;
  const y = j * SIZE;
  for (let k = 0; k < SIZE; k++) if (a[x + k] !== b[y + k]) return false;
  return true;
}

/** An object this compile wrote with other bytes than the previous snapshot's: its key and previous SHA-256. */
export interface ChangedObject {
  key: string;
  before: Uint8Array;
}

/**
 * The digests of `keys`' objects in the previous snapshot, whose keys were the same (`changes` not
 * null): `shas` with the changed ones put back. Null when a changed key is not among `keys`.
 */
export function digestsBefore(keys: readonly string[], shas: Uint8Array, changes: ChangedObject[] | null): Uint8Array | null {
  if (changes === null) return null;
  const before = shas.slice();
  for (const c of changes) {
    const i = sortedIndexOf(keys, c.key);
    if (i < 0 || c.before.length !== SIZE) return null;
    before.set(c.before, i * SIZE);
  }
  return before;
}

/** Position of `key` in `keys` (sorted as keyOrder sorts), or -1. */
function sortedIndexOf(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] === key) return mid;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
