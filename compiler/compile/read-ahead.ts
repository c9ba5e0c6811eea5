/**
 * Work an incremental compile needs later that reads only the previous snapshot's files, done on a
 * thread of its own while the main thread reads the catalog: at a million cards that read kept one
 * core busy for 12-14 s and left the other idle, while every phase after it keeps both busy
 * (docs/benchmarks.md, "Incremental compile: the idle core during the catalog read").
 *
 * Four pieces of work:
 * - the current snapshot's stored catalog read frame by frame and hashed, each JSON frame's bytes
 *   transferred to the main thread, which decodes and parses them (catalog-frames.ts: in pieces,
 *   0.4-0.6 s of decoding at a million cards; decoded here as whole frames and copied over as text,
 *   they cost this thread 4.7 s and the main thread about as much again, docs/benchmarks.md);
 * - the hash of the catalog files that decides whether that catalog may be taken;
 * - the scan of the stored price lines (price-line-store.ts `scanPriceLines`: every chunk read and
 *   checked, every line's key put in the key index), which the entity phase then opens without
 *   scanning again; its arrays come back transferred, not copied;
 * - then, in the entity phase, the price file's lines split and hashed (source/hashed-lines.ts), their
 *   bytes in slots of a buffer shared with the main thread.
 * Requests are answered in the order sent.
 *
 * @example
 *   const ahead = startReadAhead(threads);
 *   const scanned = ahead.priceLines(join(previous.dir, PRICE_LINES_FILE), priceLinesVersion(codeHash));
 *   await catalogFor(source, root, maxRejects, progress, load, ahead);   // the stored catalog's frames
 *   openPriceLines(path, await scanned);                                 // in the entity phase
 *   await ahead.close();
 */
import { startThread, type Thread, type ThreadMode, type ThreadService } from '../threads/thread.js';
import { hashCatalogFiles, type CatalogFile } from '../source/files-hash.js';
import { openFrameReader, type FrameHeader, type FrameReader } from './framed-file.js';
import { scanPriceLines, type ScannedPriceLines } from './price-line-store.js';
import type { ElsewhereFrame, ReadElsewhere } from './stored-catalog.js';
import { openLineBatches, type HashedBatch, type LineBatchReader } from '../source/hashed-lines.js';

export type ReadAheadRequest =
  | { kind: 'price-lines'; path: string; version: string }
  | { kind: 'frames'; path: string; expect: Record<string, unknown> }
  | { kind: 'frame' }
  | { kind: 'files-hash'; files: CatalogFile[] }
  | { kind: 'lines'; path: string; slots: SharedArrayBuffer }
  | { kind: 'lines-batch'; slot: number }
  | { kind: 'lines-close' };

type ReadAheadReply =
  | { kind: 'price-lines'; scanned: ScannedPriceLines | null }
  | { kind: 'frames'; header: FrameHeader | null }
  | { kind: 'frame'; frame: ElsewhereFrame | null }
  | { kind: 'files-hash'; hash: string | null }
  | { kind: 'lines' }
  | { kind: 'lines-batch'; batch: HashedBatch | null }
  | { kind: 'lines-close' };

export const readAheadService: ThreadService<null, ReadAheadRequest, ReadAheadReply> = {
  name: 'read-ahead',
  entry: new URL('./read-ahead-worker.js', import.meta.url),
  create: () => {
    // The state file being read for the main thread, and how many of its frames were handed out.
    let reader: FrameReader | null = null;
    let handed = 0;
    const stop = () => {
      reader?.close();
      reader = null;
    };
    const nextFrame = (): ElsewhereFrame | null => {
      if (reader === null) return null;
      try {
        const value = reader.next();
        handed++;
        const last = handed === reader.header.frames;
        const frame: ElsewhereFrame = { value };
        if (last) {
          frame.sha1 = reader.sha1();
          stop();
        }
        return frame;
      } catch {
        stop();
        return null;
      }
    };
    // The file whose lines are being split for the main thread.
    let lines: Awaited<ReturnType<typeof openLineBatches>> | null = null;
    const closeLines = async () => {
      const open = lines;
      lines = null;
      await open?.close();
    };
    return async (request) => {
      switch (request.kind) {
        case 'lines':
          await closeLines();
          lines = await openLineBatches(request.path, request.slots);
          return { kind: 'lines' };
        case 'lines-batch':
          if (lines === null) throw new Error('read-ahead: a batch of lines asked for with no file open');
          return { kind: 'lines-batch', batch: await lines.next(request.slot) };
        case 'lines-close':
          await closeLines();
          return { kind: 'lines-close' };
        case 'price-lines':
          return { kind: 'price-lines', scanned: scanPriceLines(request.path, request.version) };
        case 'frames':
          stop();
          handed = 0;
          reader = openFrameReader(request.path, (h) => Object.entries(request.expect).every(([k, v]) => h[k] === v));
          return { kind: 'frames', header: reader?.header ?? null };
        case 'frame':
          return { kind: 'frame', frame: nextFrame() };
        case 'files-hash':
          return { kind: 'files-hash', hash: hashCatalogFiles(request.files) };
      }
    };
  },
  transfer(reply) {
    // A JSON frame's bytes: a view of the buffer its frame was read into, which is its alone
    // (framed-file.ts), so it is handed over instead of copied.
    if (reply.kind === 'lines-batch') return reply.batch?.own.map(([, bytes]) => bytes.buffer as ArrayBuffer) ?? [];
    if (reply.kind === 'frame') return reply.frame?.value instanceof Uint8Array ? [reply.frame.value.buffer as ArrayBuffer] : [];
    if (reply.kind !== 'price-lines' || reply.scanned === null) return [];
    const { hi, lo, places } = reply.scanned.keys;
    return [hi.buffer, lo.buffer, places.buffer, reply.scanned.placeOf.buffer, reply.scanned.liveBits.buffer] as ArrayBuffer[];
  },
};

export interface ReadAhead extends ReadElsewhere {
  /** Splits and hashes a file's lines on the thread (source/hashed-lines.ts hashedLineBytes). */
  lines: LineBatchReader;
  /** The scan of a price lines file (null: not to be trusted), made on the thread. */
  priceLines(path: string, version: string): Promise<ScannedPriceLines | null>;
  /** Stops the thread (a request not answered yet rejects). */
  close(): Promise<void>;
}

export function startReadAhead(mode: ThreadMode): ReadAhead {
  // Started with the first request: a first compile (no previous snapshot) never asks for one.
  let thread: Thread<ReadAheadRequest, ReadAheadReply> | null = null;
  /** The reply to `request`, of the kind asked for. */
  const ask = async <K extends ReadAheadRequest['kind']>(request: ReadAheadRequest & { kind: K }): Promise<ReadAheadReply & { kind: K }> => {
    thread ??= startThread(readAheadService, null, mode);
    const reply = await thread.call(request);
    if (reply.kind !== request.kind) throw new Error(`read-ahead: a ${reply.kind} reply to a ${request.kind} request`);
    return reply as ReadAheadReply & { kind: K };
  };
  return {
    openFrames: async (path, expect) => (await ask({ kind: 'frames', path, expect })).header,
    nextFrame: async () => (await ask({ kind: 'frame' })).frame,
    filesHash: async (files) => (await ask({ kind: 'files-hash', files: [...files] })).hash,
    lines: {
      open: async (path, slots) => {
        await ask({ kind: 'lines', path, slots });
      },
      next: async (slot) => (await ask({ kind: 'lines-batch', slot })).batch,
      close: async () => {
        await ask({ kind: 'lines-close' });
      },
    },
    priceLines(path, version) {
      const scanned = ask({ kind: 'price-lines', path, version }).then((reply) => reply.scanned);
      // Never an unhandled rejection: the entity phase awaits it (or the compile failed before).
      scanned.catch(() => undefined);
      return scanned;
    },
    close: async () => {
      await thread?.close();
    },
  };
}
