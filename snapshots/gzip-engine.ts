/**
 * One zlib stream re-used for many small buffers, synchronously: gzip for the compiler's documents,
 * gunzip for the proxy's check of every object it reads.
 *
 * Why: `zlib.gzipSync` and `gunzipSync` create (and free) a zlib stream per call. For deflate that is
 * about 256 KiB of state set up, 15-20 µs of the ~70 µs a 2 KB card document costs to compress, so
 * ~10 s of CPU per 100,000-card compile; for inflate, 5-8 µs of the ~11 µs a 1 KB object costs to
 * check (docs/benchmarks.md). Here the stream is reset (zlib's `deflateReset`/`inflateReset`)
 * between buffers instead.
 *
 * The results are those of `gzipSync`/`gunzipSync` with the same options, byte for byte: the same
 * deflate parameters, the same gzip header (mtime 0, OS byte of the platform), and a reset stream
 * starts exactly as a new one. test/snapshots/gzip-engine.test.ts checks that on inputs of every
 * size class, and that broken input throws what `gunzipSync` throws.
 *
 * It drives the stream's native handle the way Node's own `zlibBufferSync` does (`writeSync` with
 * Z_FINISH, results in `_writeState`) without closing it afterwards. That is Node-internal surface
 * (stable since Node 10, still so in 20 and 22), so the engine checks for it once and otherwise
 * calls the `*Sync` function every time. Whenever zlib reports an error (a corrupt or truncated gzip
 * stream: zlib destroys the stream) or the input is not one single complete stream (several gzip
 * members, trailing bytes), the engine drops its stream and answers with the `*Sync` function on the
 * same input, so errors and edge cases are exactly Node's; the next call makes a new stream.
 *
 * @example
 *   const gz = createGzipEngine({ level: 6 });
 *   gz('{"a":1}')                      // same bytes as gzipSync('{"a":1}', { level: 6 })
 *   createGunzipEngine()(gz('x'))      // <Buffer 78>, like gunzipSync
 */
import { constants, createGunzip, createGzip, gunzipSync, gzipSync, type Gunzip, type Gzip, type ZlibOptions } from 'node:zlib';

/**
 * `engine(input)` returns a Buffer of its own. `engine(input, true)` may instead return a view of the
 * engine's output buffer, valid only until its next call: for a caller that hashes and copies the
 * bytes at once (the compile's pack writes), so that no buffer is allocated per object.
 */
export type ZlibEngine = (input: Buffer | string, transient?: boolean) => Buffer;

/** The parts of Node's zlib stream this file relies on (lib/zlib.js, processChunkSync). */
interface NativeZlib {
  destroyed: boolean;
  _handle?: {
    writeSync(flush: number, input: Buffer, inOff: number, inLen: number, out: Buffer, outOff: number, outLen: number): void;
    reset(): void;
  };
  _writeState?: Uint32Array;
}

const OUT_CHUNK = 64 * 1024;

/** gzip with `options`, byte-identical to `gzipSync(input, options)`. */
export function createGzipEngine(options: ZlibOptions): ZlibEngine {
  return createEngine(() => createGzip(options), (input) => gzipSync(input, options));
}

/** gunzip, with the result (or the error) of `gunzipSync(input)`. */
export function createGunzipEngine(): ZlibEngine {
  return createEngine(() => createGunzip(), (input) => gunzipSync(input));
}

function createEngine(make: () => Gzip | Gunzip, once: (input: Buffer) => Buffer): ZlibEngine {
  let stream: (Gzip | Gunzip) & NativeZlib;
  let out = Buffer.allocUnsafe(OUT_CHUNK);
  let usable = false;

  const open = () => {
    stream = make() as (Gzip | Gunzip) & NativeZlib;
    // zlib reports failures by destroying the stream and emitting 'error' on the next tick; the
    // engine sees `destroyed` right after writeSync and answers through `once` instead.
    stream.on('error', () => undefined);
    usable = typeof stream._handle?.writeSync === 'function' && typeof stream._handle.reset === 'function' && stream._writeState instanceof Uint32Array;
    if (!usable) stream.destroy();
  };
  open();
  if (!usable) return (input) => once(toBuffer(input));

  return (input, transient = false) => {
    const data = toBuffer(input);
    const handle = stream._handle!;
    const state = stream._writeState!;
    let inOff = 0;
    let inLeft = data.byteLength;
    let outOff = 0;
    let full: Buffer[] | null = null;
    for (;;) {
      const outLeft = out.length - outOff;
      handle.writeSync(constants.Z_FINISH, data, inOff, inLeft, out, outOff, outLeft);
      if (stream.destroyed) {
        open();
        return once(data);
      }
      const outLeftAfter = state[0]!;
      const inLeftAfter = state[1]!;
      inOff += inLeft - inLeftAfter;
      inLeft = inLeftAfter;
      outOff += outLeft - outLeftAfter;
      if (outLeftAfter !== 0) break; // the stream ended: trailer written (gzip) or read (gunzip)
      // The output buffer is full: keep it and carry on in a fresh one.
      (full ??= []).push(out);
      out = Buffer.allocUnsafe(OUT_CHUNK);
      outOff = 0;
    }
    handle.reset();
    // Bytes after the end of the first gzip member: Node reads further members or rejects trailing
    // garbage; leave that to it.
    if (inLeft !== 0) return once(data);
    if (transient && full === null) return out.subarray(0, outOff);
    // A copy (`out` is written again by the next call) that owns its whole ArrayBuffer, never a
    // slice of Node's shared pool, so the compile's workers can transfer it (render-worker.ts).
    const size = (full === null ? 0 : full.length * OUT_CHUNK) + outOff;
    const result = Buffer.allocUnsafeSlow(size);
    let at = 0;
    if (full !== null) for (const chunk of full) at += chunk.copy(result, at);
    out.copy(result, at, 0, outOff);
    return result;
  };
}

function toBuffer(input: Buffer | string): Buffer {
  return typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
}
