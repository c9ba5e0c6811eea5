/**
 * Card and figure documents are the bulk of a snapshot (five ranges per card), so they are rendered
 * and compressed in batches by worker threads; in an incremental compile the same threads compress the
 * aggregate documents the main thread renders (document-sink.ts). A job carries everything one entity's documents
 * depend on. Workers only compute: every object is appended to the pack by the main thread (one
 * writer, one pack, in one order).
 *
 * A batch's compressed objects come back in an arena: a slice of memory shared with the main
 * thread (a SharedArrayBuffer made once per render thread, pool.ts), not as one transferred buffer
 * per object. Every ArrayBuffer the main thread receives counts towards V8's external memory, each
 * 64 MB of that starts a marking of the main thread's whole heap, and that heap holds the loaded
 * catalog: at a million cards, 6.5 GB of objects meant a hundred markings of a gigabyte each
 * (docs/benchmarks.md, "Garbage collection that grew with the square of the catalog"). An object
 * that does not fit in what is left of the arena comes back in a buffer of its own.
 *
 * This module is shared by the worker and by the main thread (which renders a batch itself when
 * the render threads are busy, or every batch with `--workers 0`, into an arena of its own).
 */
import type { CardRecord, FigureRecord, FigureSeriesRecord, FxRateRecord, PriceSeriesRecord, SetRecord } from '../../snapshots/records.js';
import { RANGES } from '../../snapshots/records.js';
import { cardKey, figureKey } from '../../snapshots/keys.js';
import { gzipTransient, sha256Hex } from '../../snapshots/codec.js';
import { createPackReader, type PackReader } from '../../snapshots/packs/pack-reader.js';
import { patchPage, type PagePatch } from './page-splice.js';
import { renderCardRangesJson } from '../render/card.js';
import { renderFigureJson } from '../render/figure.js';
import { createFxLookup } from '../render/fx.js';
import type { FxLookup } from '../render/types.js';
import type { ThreadService } from '../threads/thread.js';

export type EntityJob =
  | { kind: 'card'; card: CardRecord; set: SetRecord; prices: PriceSeriesRecord | null; input: string }
  | { kind: 'figure'; figure: FigureRecord; series: FigureSeriesRecord; prices: PriceSeriesRecord | null; input: string }
  /** An aggregate document rendered on the main thread, compressed here (document-sink.ts). */
  | { kind: 'document'; key: string; json: string; input: string }
  /**
   * The same, its JSON as UTF-8 in the batch's input arena (`at`, `length`): written there by the pool
   * instead of the string being copied into the message (pool.ts).
   */
  | { kind: 'document-bytes'; key: string; at: number; length: number; input: string }
  /**
   * A list page patched from the previous snapshot's (page-splice.ts): its stored bytes at `offset`,
   * `length` in pack `pack`, inflated, given the JSON of its new asOf and its changed items, compressed.
   */
  | ({ kind: 'patch'; input: string } & PagePatch);

export interface RenderedObject {
  key: string;
  /** The object's bytes when they did not fit in the batch's arena; null when they are there. */
  bytes: Uint8Array | null;
  /** Where the bytes are in the arena (when `bytes` is null). */
  offset: number;
  length: number;
  sha256: string;
  input: string;
}

/** Bytes of one arena: a batch of 64 cards compresses to about 400 KB (five objects of ~1.2 KB each). */
export const ARENA_BYTES = 2 ** 20;
/**
 * Bytes of one input arena: the JSON of a batch of documents (document-sink.ts hands over 64 K
 * characters or 8 documents at a time). A document that does not fit is sent as a string.
 */
export const INPUT_ARENA_BYTES = 256 * 1024;

export interface EntityWorkerInit {
  fxRates: FxRateRecord[];
  /** The render thread's arenas (ARENA_BYTES each), shared with the main thread; absent on the main thread. */
  arenas?: SharedArrayBuffer;
  /** Its input arenas (INPUT_ARENA_BYTES each, one per arena), where the main thread writes documents' JSON. */
  inputs?: SharedArrayBuffer;
  /** The snapshot root's packs folder, where `patch` jobs read the previous pages (absent: no patch jobs). */
  packsDir?: string;
}

/** A batch for a render thread, and the arena (its index in the thread's `arenas`) to put its objects in. */
export interface RenderRequest {
  jobs: EntityJob[];
  arena: number;
}

export function cardKeys(id: string): string[] {
  return RANGES.map((r) => cardKey(id, r));
}

/** The arena `index` of `arenas` as a Buffer (no copy: the same memory). */
export function arenaOf(arenas: SharedArrayBuffer, index: number, bytes = ARENA_BYTES): Buffer {
  return Buffer.from(arenas, index * bytes, bytes);
}

/** The bytes of a rendered object: its own, or its place in the arena its batch was rendered into. */
export function objectBytes(o: RenderedObject, arena: Buffer): Buffer {
  if (o.bytes !== null) return Buffer.from(o.bytes.buffer, o.bytes.byteOffset, o.bytes.byteLength);
  return arena.subarray(o.offset, o.offset + o.length);
}

/** Builds the per-thread renderer: one FX lookup, reused for every batch, writing into the arena given. */
export function createEntityRenderer(init: EntityWorkerInit): (jobs: EntityJob[], arena: Buffer, inputArena?: Buffer) => RenderedObject[] {
  const fx: FxLookup = createFxLookup(init.fxRates);
  return (jobs, arena, inputArena) => {
    // Opened for the batch and closed with it: a thread has no end hook, and its descriptors are the process's.
    let packs: PackReader | null = null;
    try {
      return renderBatch(jobs, arena, inputArena, () => (packs ??= createPackReader({ dir: init.packsDir! })));
    } finally {
      (packs as PackReader | null)?.close();
    }
  };
  function renderBatch(jobs: EntityJob[], arena: Buffer, inputArena: Buffer | undefined, packs: () => PackReader): RenderedObject[] {
    const out: RenderedObject[] = [];
    let used = 0;
    // The compressed bytes are the deflater's own buffer until the next call: hashed, then copied
    // into the arena (or, when it is full, into a buffer of their own).
    const emit = (key: string, json: string | Buffer, input: string) => {
      const bytes = gzipTransient(json);
      const sha256 = sha256Hex(bytes);
      if (used + bytes.length <= arena.length) {
        out.push({ key, bytes: null, offset: used, length: bytes.length, sha256, input });
        used += bytes.copy(arena, used);
      } else {
        const own = Buffer.allocUnsafeSlow(bytes.length);
        bytes.copy(own);
        out.push({ key, bytes: own, offset: 0, length: bytes.length, sha256, input });
      }
    };
    for (const job of jobs) {
      if (job.kind === 'card') {
        // Canonical JSON written directly (render/entity-json.ts), the same text stableJson makes.
        const json = renderCardRangesJson({ card: job.card, set: job.set, prices: job.prices, fx });
        RANGES.forEach((range, i) => emit(cardKey(job.card.id, range), json[i], job.input));
      } else if (job.kind === 'document') {
        emit(job.key, job.json, job.input);
      } else if (job.kind === 'document-bytes') {
        if (inputArena === undefined) throw new Error(`${job.key}: a document in an input arena, and no input arena`);
        emit(job.key, inputArena.subarray(job.at, job.at + job.length), job.input);
      } else if (job.kind === 'patch') {
        if (init.packsDir === undefined) throw new Error(`${job.key}: a page to patch, and no packs folder`);
        emit(job.key, patchPage(job, packs()), job.input);
      } else {
        emit(figureKey(job.figure.id), renderFigureJson({ figure: job.figure, series: job.series, prices: job.prices, fx }), job.input);
      }
    }
    return out;
  }
}

/** The render thread (pool.ts): batches in, objects back in the batch's arena (or transferred, not copied). */
export const renderService: ThreadService<EntityWorkerInit, RenderRequest, RenderedObject[]> = {
  name: 'render',
  entry: new URL('./render-worker.js', import.meta.url),
  create: (init) => {
    if (init.arenas === undefined) throw new Error('a render thread needs its arenas');
    const { arenas, inputs } = init;
    const render = createEntityRenderer(init);
    return (request) => render(request.jobs, arenaOf(arenas, request.arena), inputs && arenaOf(inputs, request.arena, INPUT_ARENA_BYTES));
  },
  // An object outside the arena owns its whole ArrayBuffer (allocUnsafeSlow, never a slice of Node's pool): moved, not copied.
  transfer: (objects) => objects.flatMap((o) => (o.bytes === null ? [] : [o.bytes.buffer as ArrayBuffer])),
};
