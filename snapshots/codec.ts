/**
 * Deterministic encoding: stable key order (object keys sorted, the output of
 * fast-json-stable-stringify, which the tests use as the reference) and gzip with fixed settings.
 * Node's gzip writes mtime 0 and a fixed OS byte, so the same JSON gives the same bytes and hash.
 *
 * @example
 *   const bytes = encodeDocument(envelope('card', '2026-11-20', data));
 *   decodeDocument(bytes)  // the envelope again
 */
import { createHash } from 'node:crypto';
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

/**
 * JSON with object keys in sorted order at every depth: byte-identical for equal values whatever
 * order their keys were built in. Same output as fast-json-stable-stringify (checked in
 * test/snapshots/codec.test.ts), about twice as fast on card documents (docs/benchmarks.md).
 *
 * @example stableJson({ b: 1, a: [2, { d: 3, c: 4 }] })  // '{"a":[2,{"c":4,"d":3}],"b":1}'
 */
export function stableJson(value: unknown): string {
  return canonical(value, null) ?? 'null';
}

/**
 * stableJson of several values that share nested objects (by identity), each serialized once. The
 * values must not be mutated in between. About 40% less time than five stableJson calls on the five
 * range documents of a card (docs/benchmarks.md).
 *
 * @example stableJsonShared([{ a: shared, r: 1 }, { a: shared, r: 2 }])  // two strings, `shared` serialized once
 */
export function stableJsonShared(values: readonly unknown[]): string[] {
  const memo = new WeakMap<object, string>();
  return values.map((v) => canonical(v, memo) ?? 'null');
}

const GZIP_OPTIONS = { level: GZIP_LEVEL, strategy: constants.Z_DEFAULT_STRATEGY };

// One re-used zlib stream per thread and direction (each worker thread has its own copy of this
// module), made on first use so importing the codec does no work: see gzip-engine.ts for why and for
// the byte-identity with gzipSync/gunzipSync.
let deflater: ZlibEngine | null = null;
let inflater: ZlibEngine | null = null;

/** gzip with the snapshot's fixed settings; byte-identical to `gzipSync(raw, GZIP_OPTIONS)`. */
export function gzip(raw: Buffer | string): Buffer {
  deflater ??= createGzipEngine(GZIP_OPTIONS);
  return deflater(raw);
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

export function sha256Hex(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A short fingerprint for change detection (not a security boundary). */
export function fingerprint(...parts: (string | Buffer)[]): string {
  const h = createHash('sha1');
  for (const p of parts) h.update(p).update('\u0000');
  return h.digest('base64url');
}
