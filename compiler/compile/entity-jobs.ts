/**
 * Card and figure documents are the bulk of a snapshot (five ranges per card), so they are rendered
 * and compressed in batches by worker threads. A job carries everything one entity's documents
 * depend on. Workers only compute: every file is created by the main thread, because on ext4
 * concurrent file creation from several threads was measured to be several times slower in total
 * than from one (directory and journal locks; see docs/benchmarks.md).
 * This module is shared by the worker and by the in-process path (workers: 0).
 */
import type { CardRecord, FigureRecord, FigureSeriesRecord, FxRateRecord, PriceSeriesRecord, SetRecord } from '../../snapshots/records.js';
import { RANGES } from '../../snapshots/records.js';
import { cardKey, figureKey } from '../../snapshots/keys.js';
import { gzip, sha256Hex } from '../../snapshots/codec.js';
import { renderCardRangesJson } from '../render/card.js';
import { renderFigureJson } from '../render/figure.js';
import { createFxLookup } from '../render/fx.js';
import type { FxLookup } from '../render/types.js';
import type { ThreadService } from '../threads/thread.js';

export type EntityJob =
  | { kind: 'card'; card: CardRecord; set: SetRecord; prices: PriceSeriesRecord | null; input: string }
  | { kind: 'figure'; figure: FigureRecord; series: FigureSeriesRecord; prices: PriceSeriesRecord | null; input: string };

export interface RenderedObject {
  key: string;
  bytes: Uint8Array;
  sha256: string;
  input: string;
}

export interface EntityWorkerInit {
  fxRates: FxRateRecord[];
}

export function cardKeys(id: string): string[] {
  return RANGES.map((r) => cardKey(id, r));
}

/** Builds the per-thread renderer: one FX lookup, reused for every batch. */
export function createEntityRenderer(init: EntityWorkerInit): (jobs: EntityJob[]) => RenderedObject[] {
  const fx: FxLookup = createFxLookup(init.fxRates);
  const emit = (out: RenderedObject[], key: string, bytes: Buffer, input: string) => {
    out.push({ key, bytes, sha256: sha256Hex(bytes), input });
  };
  return (jobs) => {
    const out: RenderedObject[] = [];
    for (const job of jobs) {
      if (job.kind === 'card') {
        // Canonical JSON written directly (render/entity-json.ts), the same text stableJson makes.
        const json = renderCardRangesJson({ card: job.card, set: job.set, prices: job.prices, fx });
        RANGES.forEach((range, i) => emit(out, cardKey(job.card.id, range), gzip(json[i]), job.input));
      } else {
        emit(out, figureKey(job.figure.id), gzip(renderFigureJson({ figure: job.figure, series: job.series, prices: job.prices, fx })), job.input);
      }
    }
    return out;
  };
}

/** zlib output normally owns its ArrayBuffer; copy when it does not, so a transfer never detaches shared memory. */
function ownBuffer(o: RenderedObject): ArrayBuffer {
  const b = o.bytes;
  if (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer) return b.buffer;
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  o.bytes = copy;
  return copy.buffer;
}

/** The render thread (pool.ts): batches in, compressed objects back, their memory transferred, not copied. */
export const renderService: ThreadService<EntityWorkerInit, EntityJob[], RenderedObject[]> = {
  name: 'render',
  entry: new URL('./render-worker.js', import.meta.url),
  create: createEntityRenderer,
  transfer: (objects) => objects.map(ownBuffer),
};
