/**
 * Card and figure documents are the bulk of a snapshot (five ranges per card), so they are rendered
 * in batches by worker threads. A job carries everything one entity's documents depend on; the
 * main thread has already decided whether the previous snapshot's objects can be re-used.
 * This module is shared by the worker and by the in-process path (workers: 0).
 */
import type { CardRecord, FigureRecord, FigureSeriesRecord, FxRateRecord, PriceSeriesRecord, SetRecord } from '../../snapshots/records.js';
import { RANGES } from '../../snapshots/records.js';
import { cardKey, figureKey } from '../../snapshots/keys.js';
import { encodeDocument, sha256Hex } from '../../snapshots/codec.js';
import { createFsSnapshotWriter } from '../../snapshots/store/fs.js';
import type { SnapshotWriter } from '../../snapshots/store/types.js';
import { renderCardRanges } from '../render/card.js';
import { renderFigure } from '../render/figure.js';
import { createFxLookup } from '../render/fx.js';
import type { FxLookup } from '../render/types.js';

export type EntityJob =
  | { kind: 'card'; card: CardRecord; set: SetRecord; prices: PriceSeriesRecord | null; input: string }
  | { kind: 'figure'; figure: FigureRecord; series: FigureSeriesRecord; prices: PriceSeriesRecord | null; input: string }
  /** Re-use these keys from the previous snapshot folder (inputs unchanged). */
  | { kind: 'reuse'; keys: string[] };

export interface WrittenObject {
  key: string;
  size: number;
  sha256: string;
  input: string;
}

export interface EntityWorkerInit {
  root: string;
  snapshotId: string;
  previousDir: string | null;
  fxRates: FxRateRecord[];
}

export function cardKeys(id: string): string[] {
  return RANGES.map((r) => cardKey(id, r));
}

/** Builds the per-thread renderer: one writer and one FX lookup, reused for every batch. */
export function createEntityRenderer(init: EntityWorkerInit): (jobs: EntityJob[]) => WrittenObject[] {
  const writer: SnapshotWriter = createFsSnapshotWriter(init.root, init.snapshotId);
  const fx: FxLookup = createFxLookup(init.fxRates);
  const emit = (out: WrittenObject[], key: string, doc: unknown, input: string) => {
    const bytes = encodeDocument(doc);
    writer.putSync(key, bytes);
    out.push({ key, size: bytes.length, sha256: sha256Hex(bytes), input });
  };
  return (jobs) => {
    const out: WrittenObject[] = [];
    for (const job of jobs) {
      switch (job.kind) {
        case 'card': {
          const docs = renderCardRanges({ card: job.card, set: job.set, prices: job.prices, fx });
          for (const range of RANGES) emit(out, cardKey(job.card.id, range), docs.get(range), job.input);
          break;
        }
        case 'figure':
          emit(out, figureKey(job.figure.id), renderFigure({ figure: job.figure, series: job.series, prices: job.prices, fx }), job.input);
          break;
        case 'reuse':
          if (init.previousDir === null) throw new Error('reuse job without a previous snapshot');
          for (const key of job.keys) writer.reuseSync(init.previousDir, key);
          break;
      }
    }
    return out;
  };
}
