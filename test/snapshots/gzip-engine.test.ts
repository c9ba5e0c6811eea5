import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gunzip, gzip, GZIP_LEVEL, gzipTransient } from '../../snapshots/codec.js';
import { createGunzipEngine, createGzipEngine } from '../../snapshots/gzip-engine.js';

const OPTIONS = { level: GZIP_LEVEL, strategy: constants.Z_DEFAULT_STRATEGY };

/** Deterministic text of the given size that compresses like a document (numbers, repeated keys). */
function documentLike(size: number, seed: number): string {
  let out = '{"history":[';
  let x = seed;
  while (out.length < size) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += `[${1700000000000 + (x % 86400000)},${x % 100000}],`;
  }
  return out.slice(0, size);
}

/** Incompressible bytes: the output is larger than the input, so it spans several output chunks. */
function noise(size: number, seed: number): Buffer {
  const b = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    b[i] = x >>> 16;
  }
  return b;
}

describe('createGzipEngine', () => {
  it('gives the same bytes as gzipSync for empty, small, document-sized and multi-chunk inputs, call after call', () => {
    const engine = createGzipEngine(OPTIONS);
    const inputs: (Buffer | string)[] = [
      '',
      '{}',
      'ünïcödé ✓ {"name":"Pokémon"}',
      ...[200, 2_000, 5_000, 40_000].map((n, i) => documentLike(n, i + 1)),
      noise(65_536 * 3 + 17, 7), // more than three 64 KiB output chunks
      documentLike(2_000, 1), // again, after the multi-chunk input
    ];
    for (const input of inputs) {
      const ours = engine(input);
      expect(ours.equals(gzipSync(input, OPTIONS))).toBe(true);
      expect(gunzipSync(ours).equals(Buffer.from(input))).toBe(true);
    }
  });

  it('returns buffers that own their whole memory, so a worker can transfer them', () => {
    const ours = createGzipEngine(OPTIONS)(documentLike(3_000, 3));
    expect(ours.byteOffset).toBe(0);
    expect(ours.buffer.byteLength).toBe(ours.byteLength);
  });

  it('gzipTransient gives the bytes gzip gives, in a buffer the next call re-uses (copied ones when the output spans chunks)', () => {
    const small = documentLike(2_000, 5);
    const first = gzipTransient(small);
    expect(first.equals(gzipSync(small, OPTIONS))).toBe(true);
    const copy = Buffer.from(first);
    const other = gzipTransient(documentLike(1_500, 6));
    expect(other.equals(gzipSync(documentLike(1_500, 6), OPTIONS))).toBe(true);
    // The same memory as the first result: a caller hashes and copies before calling again.
    expect(first.buffer).toBe(other.buffer);
    expect(copy.equals(gzipSync(small, OPTIONS))).toBe(true);
    const large = noise(200_000, 9);
    expect(gzipTransient(large).equals(gzipSync(large, OPTIONS))).toBe(true);
    // A string longer than the codec's first UTF-8 scratch (64 KiB) grows it and still matches.
    const long = '★'.repeat(40_000);
    expect(gzipTransient(long).equals(gzipSync(long, OPTIONS))).toBe(true);
    expect(gzip(long).equals(gzipSync(long, OPTIONS))).toBe(true);
  });

  it('is what the codec uses: gzip() equals gzipSync with the snapshot settings', () => {
    for (let i = 0; i < 50; i++) {
      const text = documentLike(100 + i * 97, i);
      expect(gzip(text).equals(gzipSync(text, OPTIONS))).toBe(true);
    }
  });
});

/** What a call gives: its bytes, or the code of the error it throws. */
function outcome(f: () => Buffer): string {
  try {
    return f().toString('hex');
  } catch (err) {
    return `throws ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
  }
}

describe('createGunzipEngine', () => {
  const one = gzipSync(documentLike(2_000, 5), OPTIONS);
  const corrupt = Buffer.from(one);
  corrupt[corrupt.length - 6] ^= 0xff; // inside the CRC-32 trailer
  const garbled = Buffer.from(one);
  garbled[20] ^= 0xff; // inside the deflate data

  it('gives what gunzipSync gives, or throws what it throws, for good and broken streams in any order', () => {
    const engine = createGunzipEngine();
    const inputs: [string, Buffer][] = [
      ['one document', one],
      ['truncated', one.subarray(0, one.length - 4)],
      ['after a failure, a good one again', one],
      ['bad CRC', corrupt],
      ['garbled deflate data', garbled],
      ['not gzip at all', Buffer.from('{"plain":"json"}')],
      ['empty', Buffer.alloc(0)],
      ['two members', Buffer.concat([one, gzipSync('second', OPTIONS)])],
      ['trailing garbage', Buffer.concat([one, Buffer.from('xyz')])],
      ['large (several 64 KiB output chunks)', gzipSync(noise(200_000, 9), OPTIONS)],
      ['one document, last', one],
    ];
    for (const [what, input] of inputs) {
      expect(outcome(() => engine(input)), what).toBe(outcome(() => gunzipSync(input)));
    }
    expect(outcome(() => engine(corrupt))).toMatch(/^throws Z_/);
  });

  it('is what the codec uses: gunzip() inverts gzip()', () => {
    const text = documentLike(4_000, 11);
    expect(gunzip(gzip(text)).toString('utf8')).toBe(text);
    expect(() => gunzip(gzip(text).subarray(0, 30))).toThrow();
  });
});
