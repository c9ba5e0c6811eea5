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
import { encodeDocument, gzip, sha256Hex, stableJsonShared } from '../../snapshots/codec.js';
import { renderCardRanges } from '../render/card.js';
import { renderFigure } from '../render/figure.js';
import { createFxLookup } from '../render/fx.js';
import type { FxLookup } from '../render/types.js';

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
        const docs = renderCardRanges({ card: job.card, set: job.set, prices: job.prices, fx });
        // The ranges share the card's base object: serialize it once for all five.
        const json = stableJsonShared(RANGES.map((range) => docs.get(range)));
        RANGES.forEach((range, i) => emit(out, cardKey(job.card.id, range), gzip(json[i]), job.input));
      } else {
        emit(out, figureKey(job.figure.id), encodeDocument(renderFigure({ figure: job.figure, series: job.series, prices: job.prices, fx })), job.input);
      }
    }
    return out;
  };
}
