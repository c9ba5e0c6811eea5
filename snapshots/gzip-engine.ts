/**
 * One zlib gzip stream re-used for many small documents, synchronously.
 *
 * Why: `zlib.gzipSync` creates (and frees) a zlib stream per call: about 256 KiB of deflate state
 * allocated and set up, 15-20 µs of the ~70 µs a 2 KB card document costs to compress
 * (docs/benchmarks.md, "Compile"). A compile compresses ~5 objects per card, so at 100,000 cards that
 * is about 10 s of CPU. Here the stream is reset (zlib's `deflateReset`) between documents instead.
 *
 * The output is byte-identical to `gzipSync(input, options)`: the same deflate parameters, the same
 * gzip header (mtime 0, OS byte of the platform), and `deflateReset` restarts exactly as a new
 * stream would. test/snapshots/gzip-engine.test.ts checks that on documents of every size class.
 *
 * It drives the stream's native handle the way Node's own `zlibBufferSync` does (`writeSync` with
 * Z_FINISH, results in `_writeState`), but without closing it afterwards. That is Node-internal
 * surface (stable since Node 10, still so in 20 and 22), so `createGzipEngine` checks for it once
 * and falls back to `gzipSync` per call when it is not there.
 *
 * @example
 *   const gz = createGzipEngine({ level: 6 });
 *   gz.compress('{"a":1}')   // same bytes as gzipSync('{"a":1}', { level: 6 })
 */
import { constants, createGzip, gzipSync, type ZlibOptions } from 'node:zlib';

export interface GzipEngine {
  compress(input: Buffer | string): Buffer;
}

/** The parts of Node's zlib stream this file relies on (lib/zlib.js, processChunkSync). */
interface NativeZlib {
  _handle?: {
    writeSync(flush: number, input: Buffer, inOff: number, inLen: number, out: Buffer, outOff: number, outLen: number): void;
    reset(): void;
  };
  _writeState?: Uint32Array;
}

const OUT_CHUNK = 64 * 1024;

export function createGzipEngine(options: ZlibOptions): GzipEngine {
  const stream = createGzip(options);
  const native = stream as unknown as NativeZlib;
  const handle = native._handle;
  const state = native._writeState;
  if (!handle || typeof handle.writeSync !== 'function' || typeof handle.reset !== 'function' || !(state instanceof Uint32Array)) {
    stream.destroy();
    return { compress: (input) => gzipSync(input, options) };
  }
  // zlib reports a failure through the stream's 'error' event, from inside writeSync.
  let failure: Error | null = null;
  stream.on('error', (err: Error) => {
    failure = err;
  });
  let out = Buffer.allocUnsafe(OUT_CHUNK);

  function compress(input: Buffer | string): Buffer {
    const data = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
    let inOff = 0;
    let inLeft = data.byteLength;
    let outOff = 0;
    let full: Buffer[] | null = null;
    for (;;) {
      const outLeft = out.length - outOff;
      handle!.writeSync(constants.Z_FINISH, data, inOff, inLeft, out, outOff, outLeft);
      if (failure) {
        const err = failure;
        failure = null;
        handle!.reset();
        throw err;
      }
      const outLeftAfter = state![0]!;
      const inLeftAfter = state![1]!;
      inOff += inLeft - inLeftAfter;
      inLeft = inLeftAfter;
      outOff += outLeft - outLeftAfter;
      if (outLeftAfter !== 0) break; // Z_FINISH done: the trailer is written
      // The output buffer is full: keep it and carry on in a fresh one.
      (full ??= []).push(out);
      out = Buffer.allocUnsafe(OUT_CHUNK);
      outOff = 0;
    }
    handle!.reset();
    // A copy (`out` is written again by the next call) that owns its whole ArrayBuffer, never a
    // slice of Node's shared pool, so the compile's workers can transfer it (render-worker.ts).
    const size = (full === null ? 0 : full.length * OUT_CHUNK) + outOff;
    const result = Buffer.allocUnsafeSlow(size);
    let at = 0;
    if (full !== null) for (const chunk of full) at += chunk.copy(result, at);
    out.copy(result, at, 0, outOff);
    return result;
  }

  return { compress };
}
