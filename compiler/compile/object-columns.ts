/**
 * The objects of one snapshot (the new one being compiled, or the previous one), held column by
 * column instead of one JavaScript object per key: a million cards are 5.3 million objects, and an
 * object per key (key, size, SHA-256 as 64 hex characters, input, location) cost about 400 bytes
 * each, 2 GiB for the table alone. Here a key costs its string, one Map slot, its input string and
 * 48 bytes of typed arrays (size, offset, pack, 32-byte SHA-256): about half
 * (docs/benchmarks.md, issue 17).
 *
 * Reads hand back a fresh small view ({ key, size, sha256, input, at }); callers keep none of them.
 *
 * @example
 *   const objects = new ObjectColumns();
 *   objects.add({ key: 'v1/catalog/summary.json.gz', size: 357, sha256: '29…', input: null, at: { pack: 0, offset: 0 } });
 *   objects.get('v1/catalog/summary.json.gz')  // { key, size: 357, sha256: '29…', input: null, at: { pack: 0, offset: 0 } }
 */
import type { ManifestEntry } from '../../snapshots/manifest.js';

/** Where an object's bytes are: a pack by SHA-256 (exists) or by this compile's writer sequence (being written). */
export interface ObjectLoc {
  pack: string | number;
  offset: number;
}

export interface StoredObject extends ManifestEntry {
  /** Null for an object of a per-URL snapshot (its bytes are the file at its key). */
  at: ObjectLoc | null;
}

/** Sequences of packs being written are stored above this; below it are interned pack hashes. */
const NEW_PACK = 2 ** 30;
const NO_PACK = -1;

export class ObjectColumns {
  private readonly index = new Map<string, number>();
  private readonly keyList: string[] = [];
  private readonly inputs: (string | null)[] = [];
  private sizes = new Uint32Array(1024);
  private offsets = new Float64Array(1024);
  private packs = new Int32Array(1024);
  private shas = Buffer.alloc(1024 * 32);
  private readonly packNames: string[] = [];
  private readonly packIds = new Map<string, number>();

  get size(): number {
    return this.keyList.length;
  }

  has(key: string): boolean {
    return this.index.has(key);
  }

  /** Adds an object; a key added twice is a bug in the renderers (two documents, one URL). */
  add(o: StoredObject): void {
    const i = this.push(o.key, o.size, o.input, o.at);
    this.shas.write(o.sha256, i * 32, 32, 'hex');
  }

  /** `add` with the SHA-256 as its 32 bytes (an object index row): no hex string made and parsed per row. */
  addRaw(key: string, size: number, sha256: Buffer, input: string | null, at: ObjectLoc | null): void {
    const i = this.push(key, size, input, at);
    sha256.copy(this.shas, i * 32, 0, 32);
  }

  /**
   * Adds `key` of `other` as it is there (same size, SHA-256, input and location): an unchanged
   * object of the previous snapshot, copied column to column without a view. False when `other`
   * has no such key or its object has no pack (a per-URL previous snapshot: copied through `add`).
   */
  copyFrom(other: ObjectColumns, key: string): boolean {
    const j = other.index.get(key);
    if (j === undefined || other.packs[j] === NO_PACK) return false;
    const p = other.packs[j];
    const i = this.push(key, other.sizes[j], other.inputs[j], { pack: p >= NEW_PACK ? p - NEW_PACK : other.packNames[p], offset: other.offsets[j] });
    other.shas.copy(this.shas, i * 32, j * 32, j * 32 + 32);
    return true;
  }

  private push(key: string, size: number, input: string | null, at: ObjectLoc | null): number {
    if (this.index.has(key)) throw new Error(`two documents render to the same key: ${key}`);
    const i = this.keyList.length;
    if (i === this.sizes.length) this.grow();
    this.index.set(key, i);
    this.keyList.push(key);
    this.inputs.push(input);
    this.sizes[i] = size;
    this.setAt(i, at);
    return i;
  }

  get(key: string): StoredObject | undefined {
    const i = this.index.get(key);
    return i === undefined ? undefined : this.view(i);
  }

  /** The input fingerprint of `key` without building a view (the hot check of an incremental compile). */
  inputOf(key: string): string | null | undefined {
    const i = this.index.get(key);
    return i === undefined ? undefined : this.inputs[i];
  }

  /** Moves an object (a sparse pack's live object copied into the new pack). */
  relocate(key: string, at: ObjectLoc): void {
    const i = this.index.get(key);
    if (i === undefined) throw new Error(`no object ${key} to relocate`);
    this.setAt(i, at);
  }

  /** True when `key` has the same SHA-256 here as at index `j` of `other`. */
  sameBytes(key: string, other: ObjectColumns, otherKey: string): boolean {
    const i = this.index.get(key);
    const j = other.index.get(otherKey);
    if (i === undefined || j === undefined) return false;
    return this.shas.compare(other.shas, j * 32, j * 32 + 32, i * 32, i * 32 + 32) === 0;
  }

  *values(): Generator<StoredObject> {
    for (let i = 0; i < this.keyList.length; i++) yield this.view(i);
  }

  keys(): IterableIterator<string> {
    return this.keyList.values();
  }

  /** [key, object] pairs, as a Map iterates. */
  *[Symbol.iterator](): Generator<[string, StoredObject]> {
    for (let i = 0; i < this.keyList.length; i++) yield [this.keyList[i], this.view(i)];
  }

  /** Every object in key order (views made as the caller iterates: a million cards hold no array of them). */
  *sorted(): Generator<StoredObject> {
    const order = Array.from({ length: this.keyList.length }, (_, i) => i);
    const keys = this.keyList;
    order.sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
    for (const i of order) yield this.view(i);
  }

  private view(i: number): StoredObject {
    const p = this.packs[i];
    const at = p === NO_PACK ? null : { pack: p >= NEW_PACK ? p - NEW_PACK : this.packNames[p], offset: this.offsets[i] };
    return { key: this.keyList[i], size: this.sizes[i], sha256: this.shas.toString('hex', i * 32, i * 32 + 32), input: this.inputs[i], at };
  }

  private setAt(i: number, at: ObjectLoc | null): void {
    if (at === null) {
      this.packs[i] = NO_PACK;
      this.offsets[i] = 0;
      return;
    }
    if (typeof at.pack === 'number') this.packs[i] = NEW_PACK + at.pack;
    else {
      let id = this.packIds.get(at.pack);
      if (id === undefined) {
        id = this.packNames.length;
        this.packNames.push(at.pack);
        this.packIds.set(at.pack, id);
      }
      this.packs[i] = id;
    }
    this.offsets[i] = at.offset;
  }

  private grow(): void {
    const n = this.sizes.length * 2;
    const sizes = new Uint32Array(n);
    sizes.set(this.sizes);
    const offsets = new Float64Array(n);
    offsets.set(this.offsets);
    const packs = new Int32Array(n);
    packs.set(this.packs);
    const shas = Buffer.alloc(n * 32);
    this.shas.copy(shas);
    this.sizes = sizes;
    this.offsets = offsets;
    this.packs = packs;
    this.shas = shas;
  }
}

