/**
 * Deterministic encoding: stable key order (object keys sorted, the output of
 * fast-json-stable-stringify, which the tests use as the reference) and gzip with fixed settings.
 * Node's gzip writes mtime 0 and a fixed OS byte, so the same JSON gives the same bytes and hash.
 *
 * @example
 *   const bytes = encodeDocument(envelope('card', '2026-11-20', data));
 *   decodeDocument(bytes)  // the envelope again
 */
import { createHash, hash as oneShotHash } from 'node:crypto';
import { constants } from 'node:zlib';
import { createGunzipEngine, createGzipEngine, type ZlibEngine } from './gzip-engine.js';

export const GZIP_LEVEL = 6;

/** True for values JSON.stringify already writes canonically (no object keys to order). */
function isFlat(value: unknown[]): boolean {
  for (const x of value) {
    if (x === null || typeof x !== 'object') continue;
    if (!Array.isArray(x)) return false;
    for (const y of x) if (y !== null && typeof y === 'object') return false;
  }
  return true;
}

/**
 * `memo` caches the text of objects already serialized, by identity: the five range documents of a
 * card share one `base` object (name, set, prices, fx), so four of five serializations of it are a
 * lookup (stableJsonShared). Only plain objects are cached: flat arrays are one native call anyway.
 */
function canonical(value: unknown, memo: WeakMap<object, string> | null): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    // Price histories are arrays of [timestamp, cents] pairs: hand them to the native serializer
    // whole instead of recursing per point (this is most of a card document's bytes).
    if (isFlat(value)) return JSON.stringify(value);
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += canonical(value[i], memo) ?? 'null';
    }
    return out + ']';
  }
  const obj = value as Record<string, unknown>;
  if (typeof (obj as { toJSON?: unknown }).toJSON === 'function') return canonical((obj as { toJSON(): unknown }).toJSON(), memo);
  if (memo !== null) {
    const hit = memo.get(obj);
    if (hit !== undefined) return hit;
  }
  const keys = Object.keys(obj).sort();
  let out = '{';
  let first = true;
  for (const k of keys) {
    const v = canonical(obj[k], memo);
    if (v === undefined) continue;
    if (!first) out += ',';
    out += JSON.stringify(k) + ':' + v;
    first = false;
  }
  out += '}';
  memo?.set(obj, out);
  return out;
}

/** Thrown inside `inOrder` when a value needs the string-building path (see there). */
const NOT_NATIVE = Symbol('not native');

/**
 * Set to true on the prototype of objects built with their keys in sorted order at every depth and
 * none integer-like (compiler/render/summaries.ts's list items): `inOrder` takes them as they are,
 * without reading and comparing their keys. At a million cards that check of the set and artist
 * pages' summaries was about 3 s of an incremental compile's main thread (docs/benchmarks.md). On
 * the prototype, not the object: it is not an own key, so JSON, copies and spreads never carry it.
 */
export const KEYS_IN_ORDER: unique symbol = Symbol('keys in stableJson order');

/**
 * `value` itself when every object in it already has its keys in sorted order, otherwise a copy in
 * which every object does: JSON.stringify then writes it exactly as `canonical` would, in one native
 * call (about 25% less time on card documents than the string builder; docs/benchmarks.md). Objects are
 * only copied where their keys are out of order, and `memo` maps a shared object to its sorted form
 * once (stableJsonShared).
 *
 * Two kinds of key make JSON.stringify's order differ from a sort and throw NOT_NATIVE: integer-like
 * keys ("10", "9"), which V8 enumerates numerically before all others, and "__proto__", which an
 * assignment would not copy as a key. The caller then falls back to `canonical`.
 */
function inOrder(value: unknown, memo: WeakMap<object, unknown> | null): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const x: unknown = value[i];
      if (x === null || typeof x !== 'object') continue;
      const y = inOrder(x, memo);
      if (y !== x) (copy ??= value.slice())[i] = y;
    }
    return copy ?? value;
  }
  const obj = value as Record<string, unknown>;
  if ((obj as { [KEYS_IN_ORDER]?: unknown })[KEYS_IN_ORDER] === true) return obj;
  if (typeof (obj as { toJSON?: unknown }).toJSON === 'function') return inOrder((obj as { toJSON(): unknown }).toJSON(), memo);
  if (memo !== null) {
    const hit = memo.get(obj);
    if (hit !== undefined) return hit;
  }
  const keys = Object.keys(obj);
  let sorted = true;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const c = k.charCodeAt(0);
    if ((c >= 48 && c <= 57) || k === '__proto__') throw NOT_NATIVE;
    if (i > 0 && keys[i - 1] > k) sorted = false;
  }
  let out: Record<string, unknown>;
  if (sorted) {
    let copy: Record<string, unknown> | null = null;
    for (const k of keys) {
      const v = obj[k];
      if (v === null || typeof v !== 'object') continue;
      const w = inOrder(v, memo);
      if (w !== v) (copy ??= { ...obj })[k] = w;
    }
    out = copy ?? obj;
  } else {
    keys.sort();
    out = {};
    for (const k of keys) out[k] = inOrder(obj[k], memo);
  }
  memo?.set(obj, out);
  return out;
}

/**
 * JSON with object keys in sorted order at every depth: byte-identical for equal values whatever
 * order their keys were built in. Same output as fast-json-stable-stringify (checked in
 * test/snapshots/codec.test.ts), 1.5-2 times faster on card documents (`npm run bench:json`).
 *
 * @example stableJson({ b: 1, a: [2, { d: 3, c: 4 }] })  // '{"a":[2,{"c":4,"d":3}],"b":1}'
 */
export function stableJson(value: unknown): string {
  try {
    return JSON.stringify(inOrder(value, null)) ?? 'null';
  } catch (err) {
    if (err !== NOT_NATIVE) throw err;
    return canonical(value, null) ?? 'null';
  }
}

/**
 * stableJson of several values that share nested objects (by identity), each put in order once.
 * The values must not be mutated in between.
 *
 * @example stableJsonShared([{ a: shared, r: 1 }, { a: shared, r: 2 }])  // two strings, `shared` sorted once
 */
export function stableJsonShared(values: readonly unknown[]): string[] {
  try {
    const memo = new WeakMap<object, unknown>();
    return values.map((v) => JSON.stringify(inOrder(v, memo)) ?? 'null');
  } catch (err) {
    if (err !== NOT_NATIVE) throw err;
    const memo = new WeakMap<object, string>();
    return values.map((v) => canonical(v, memo) ?? 'null');
  }
}

const GZIP_OPTIONS = { level: GZIP_LEVEL, strategy: constants.Z_DEFAULT_STRATEGY };

// One re-used zlib stream per thread and direction (each worker thread has its own copy of this
// module), made on first use so importing the codec does no work: see gzip-engine.ts for why and for
// the byte-identity with gzipSync/gunzipSync.
let deflater: ZlibEngine | null = null;
let inflater: ZlibEngine | null = null;

/**
 * The UTF-8 of a document on its way into the deflater, re-used: the engine reads it synchronously
 * and returns a copy of its output, so no call sees another's bytes. A fresh Buffer per document
 * (Buffer.from) was 3-4% of the render worker's CPU in allocation and collection.
 */
const SCRATCH_BYTES = 64 * 1024;
const MAX_SCRATCH_BYTES = 16 * 2 ** 20;
let scratch: Buffer | null = null;

/** gzip with the snapshot's fixed settings; byte-identical to `gzipSync(raw, GZIP_OPTIONS)`. */
export function gzip(raw: Buffer | string): Buffer {
  return deflate(raw, false);
}

/**
 * The same bytes as `gzip(raw)`, in a buffer the next gzip call on this thread may overwrite: hash
 * and copy them before that. The compile writes every object this way (into a pack or a render
 * thread's arena), because each buffer allocated counts towards V8's external memory, and each
 * 64 MB of that starts a marking of the whole heap: with a million cards loaded, collections that
 * grew with the square of the catalog.
 */
export function gzipTransient(raw: Buffer | string): Buffer {
  return deflate(raw, true);
}

function deflate(raw: Buffer | string, transient: boolean): Buffer {
  deflater ??= createGzipEngine(GZIP_OPTIONS);
  if (typeof raw !== 'string') return deflater(raw, transient);
  // At most 3 bytes of UTF-8 per UTF-16 unit: a string that fits can never be cut short. A longer
  // one (a list page) grows the scratch to fit, up to MAX_SCRATCH_BYTES.
  let size = scratch?.length ?? SCRATCH_BYTES;
  if (raw.length * 3 > size) {
    const bytes = Buffer.byteLength(raw, 'utf8');
    if (bytes > MAX_SCRATCH_BYTES) return deflater(raw, transient);
    while (size < bytes) size *= 2;
  }
  if (scratch === null || scratch.length < size) scratch = Buffer.allocUnsafeSlow(size);
  return deflater(scratch.subarray(0, scratch.write(raw, 0, 'utf8')), transient);
}

/** What `gunzipSync(compressed)` returns or throws (a corrupt or truncated stream throws). */
export function gunzip(compressed: Buffer): Buffer {
  inflater ??= createGunzipEngine();
  return inflater(compressed);
}

export function encodeDocument(doc: unknown): Buffer {
  return gzip(stableJson(doc));
}

export function decodeDocument<T = unknown>(compressed: Buffer): T {
  return JSON.parse(gunzip(compressed).toString('utf8')) as T;
}

/**
 * One-shot `crypto.hash` rather than `createHash`: a compile hashes every object and several inputs
 * per entity (tens of millions at a million cards), and each Hash object is a native object with a
 * weak handle that every garbage collection visits and a finalizer that frees it.
 */
export function sha256Hex(data: Buffer | string): string {
  return oneShotHash('sha256', data, 'hex');
}

/** Parts short enough that joining them into one string and hashing it in one call is the quickest. */
const SHORT_PARTS = 4096;

function shortParts(parts: readonly string[]): boolean {
  let length = 0;
  for (const p of parts) length += p.length;
  return length < SHORT_PARTS;
}

/**
 * A short fingerprint for change detection (not a security boundary): SHA-1 of each part followed by
 * a NUL, base64url. Short string parts are hashed as one string (the same bytes, so the same digest).
 */
export function fingerprint(...parts: (string | Buffer)[]): string {
  if (parts.length > 0 && parts.every((p) => typeof p === 'string') && shortParts(parts as string[])) {
    return oneShotHash('sha1', `${parts.join('\u0000')}\u0000`, 'base64url');
  }
  // Long parts (a feed page's JSON, 130 KB) are hashed one by one: joined first, the 316 pages of
  // the discover binders feed took 1.25 s to hash at a million cards, part by part 0.05 s.
  const h = createHash('sha1');
  for (const p of parts) h.update(p).update('\u0000');
  return h.digest('base64url');
}
