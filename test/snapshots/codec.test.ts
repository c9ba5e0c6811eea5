import { describe, it, expect } from 'vitest';
import stringify from 'fast-json-stable-stringify';
import { createHash } from 'node:crypto';
import { stableJson, stableJsonShared, encodeDocument, decodeDocument, fingerprint, sha256Hex } from '../../snapshots/codec.js';

function randomValue(rand: () => number, depth: number): unknown {
  const r = rand();
  if (depth > 3 || r < 0.3) {
    const p = rand();
    if (p < 0.2) return null;
    if (p < 0.4) return Math.round(rand() * 1e6) / 100;
    if (p < 0.5) return rand() < 0.5;
    if (p < 0.6) return undefined;
    return 'k"\\\u00e9\n' + Math.floor(rand() * 1000).toString(36);
  }
  if (r < 0.6) return Array.from({ length: Math.floor(rand() * 5) }, () => randomValue(rand, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(rand() * 6); i > 0; i--) o[Math.floor(rand() * 1e4).toString(36)] = randomValue(rand, depth + 1);
  return o;
}

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s ^ (s >>> 15), 1 | s) + 0x6d2b79f5) >>> 0) / 2 ** 32);
}

describe('stableJson', () => {
  it('sorts keys at every depth, whatever order they were inserted in', () => {
    expect(stableJson({ b: 1, a: [2, { d: 3, c: 4 }] })).toBe('{"a":[2,{"c":4,"d":3}],"b":1}');
    expect(stableJson({ z: [[1, 'x'], [2, null]], y: { q: undefined, p: 1 } })).toBe('{"y":{"p":1},"z":[[1,"x"],[2,null]]}');
  });

  it('gives exactly the output of fast-json-stable-stringify on 2,000 random values', () => {
    const rand = prng(42);
    for (let i = 0; i < 2000; i++) {
      const v = randomValue(rand, 0);
      expect(stableJson(v)).toBe(stringify(v) ?? 'null');
    }
  });
});

/** Random values whose keys take every path of stableJson: letters only (one native call), digits first, `__proto__`, keys below '0'. */
function mixedKeyValue(rand: () => number, depth: number): unknown {
  const r = rand();
  if (depth > 4 || r < 0.25) {
    const p = rand();
    if (p < 0.15) return null;
    if (p < 0.3) return Math.round(rand() * 1e6) / 100;
    if (p < 0.4) return rand() < 0.5;
    if (p < 0.45) return undefined;
    if (p < 0.5) return new Date(Date.UTC(2026, 0, 1 + Math.floor(rand() * 300)));
    if (p < 0.55) return Number.NaN;
    return 'v"\\\u00e9\u2028' + Math.floor(rand() * 1000).toString(36);
  }
  if (r < 0.45) return Array.from({ length: Math.floor(rand() * 5) }, () => mixedKeyValue(rand, depth + 1));
  const o: Record<string, unknown> = {};
  const rare = rand();
  for (let i = Math.floor(rand() * 7); i > 0; i--) {
    const letters = 'abcdefghijklmnopqrstuvwxyzABCZ_'.charAt(Math.floor(rand() * 31)) + Math.floor(rand() * 1e4).toString(36);
    let key = letters;
    if (rare < 0.05) key = String(Math.floor(rand() * 20));
    else if (rare < 0.08) key = ['-x', '!', ' a', '', '\u00e9t\u00e9', 'Z'][Math.floor(rand() * 6)];
    else if (rare < 0.09) key = '__proto__';
    if (key === '__proto__') Object.defineProperty(o, key, { value: mixedKeyValue(rand, depth + 1), enumerable: true, configurable: true, writable: true });
    else o[key] = mixedKeyValue(rand, depth + 1);
  }
  return o;
}

describe('stableJson on keys of every kind', () => {
  it('gives exactly the output of fast-json-stable-stringify on 5,000 random values', () => {
    const rand = prng(2026);
    for (let i = 0; i < 5000; i++) {
      const v = mixedKeyValue(rand, 0);
      expect(stableJson(v)).toBe(stringify(v) ?? 'null');
    }
  });

  it('orders integer-like keys as text, as a sort does, not numerically as JSON.stringify would', () => {
    expect(stableJson({ b: { 10: 'x', 9: 'y', a: 1 }, a: 0 })).toBe('{"a":0,"b":{"10":"x","9":"y","a":1}}');
    expect(stableJson({ 5: 1, '-x': 2 })).toBe('{"-x":2,"5":1}');
  });

  it('keeps an own __proto__ key and sorts it with the others', () => {
    const o = JSON.parse('{"z":1,"__proto__":{"b":2,"a":1}}') as unknown;
    expect(stableJson(o)).toBe('{"__proto__":{"a":1,"b":2},"z":1}');
  });

  it('does not change the values it sorts', () => {
    const inner = { d: 1, c: [{ f: 2, e: 3 }] };
    const v = { b: inner, a: [inner] };
    const before = JSON.stringify(v);
    stableJson(v);
    stableJsonShared([v, v]);
    expect(JSON.stringify(v)).toBe(before);
  });
});

describe('stableJsonShared', () => {
  it('gives each value the stableJson text when values share nested objects, arrays and dates', () => {
    const rand = prng(7);
    for (let i = 0; i < 300; i++) {
      const shared = { s: randomValue(rand, 1), when: new Date(Date.UTC(2026, 0, 1 + i)), list: [{ b: 1, a: 2 }] };
      const values = [0, 1, 2].map((n) => ({ n, shared, nested: { shared, extra: randomValue(rand, 2) }, list: shared.list }));
      expect(stableJsonShared(values)).toEqual(values.map((v) => stringify(v)));
    }
  });

  it('gives each value the stableJson text when shared objects have keys of every kind', () => {
    const rand = prng(11);
    for (let i = 0; i < 1000; i++) {
      const shared = mixedKeyValue(rand, 1);
      const values = [0, 1, 2].map((n) => ({ n, shared, nested: { shared, extra: mixedKeyValue(rand, 2) } }));
      expect(stableJsonShared(values)).toEqual(values.map((v) => stringify(v)));
    }
  });
});

describe('encodeDocument', () => {
  it('is deterministic to the byte and round-trips', () => {
    const doc = { kind: 'card', data: { b: 2, a: 1 } };
    const a = encodeDocument(doc);
    const b = encodeDocument({ data: { a: 1, b: 2 }, kind: 'card' });
    expect(sha256Hex(a)).toBe(sha256Hex(b));
    expect(decodeDocument(a)).toEqual(doc);
  });
});

describe('fingerprint', () => {
  /** SHA-1 of each part's UTF-8 followed by a NUL, base64url: what the documented fingerprint is. */
  const reference = (parts: string[]) => createHash('sha1').update(Buffer.concat(parts.flatMap((p) => [Buffer.from(p, 'utf8'), Buffer.from([0])]))).digest('base64url');

  it('gives the SHA-1 of the parts each followed by a NUL, for short and long parts, strings or bytes', () => {
    const wide = '漢字 \u{1F0CF} é'.repeat(400);
    for (const parts of [
      ['a'],
      ['code', '{"id":"c1"}', ''],
      ['code', 'x'.repeat(4095)],
      ['code', 'x'.repeat(4096)],
      ['code', `[${'{"name":"Ångström"},'.repeat(7000)}null]`],
      ['code', wide, wide],
    ]) {
      expect(fingerprint(...parts), `${parts.length} parts, ${parts.join('').length} characters`).toBe(reference(parts));
      expect(fingerprint(...parts.map((p) => Buffer.from(p, 'utf8')))).toBe(reference(parts));
    }
  });
});
