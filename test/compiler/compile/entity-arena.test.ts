/**
 * A render thread's batch comes back in an arena of shared memory, not one buffer per object
 * (entity-jobs.ts): the objects read back from the arena must be exactly what gzip gives for each
 * document, also when the arena fills up and the rest come back in buffers of their own.
 */
import { describe, expect, it } from 'vitest';
import { createEntityRenderer, objectBytes, type EntityJob } from '../../../compiler/compile/entity-jobs.js';
import { renderCardRangesJson } from '../../../compiler/render/card.js';
import { createFxLookup } from '../../../compiler/render/fx.js';
import { gzip, sha256Hex } from '../../../snapshots/codec.js';
import { cardKey } from '../../../snapshots/keys.js';
import { RANGES } from '../../../snapshots/records.js';
import { card, set, walk, weekdayRates } from '../render/entity-fixtures.js';

const fxRates = weekdayRates('2025-01-06', '2026-11-20');

function jobs(n: number): EntityJob[] {
  return Array.from({ length: n }, (_, i) => {
    const c = card({ id: `mtg-m21-${i + 1}`, number: String(i + 1) });
    return { kind: 'card', card: c, set, prices: walk('card', c.id, '2026-11-20', 200 + i * 50), input: `input-${i}` };
  });
}

function expected(batch: EntityJob[]): Buffer[] {
  const fx = createFxLookup(fxRates);
  return batch.flatMap((j) => (j.kind === 'card' ? renderCardRangesJson({ card: j.card, set: j.set, prices: j.prices, fx }).map((json) => gzip(json)) : []));
}

describe('entity batches rendered into an arena', () => {
  it('when the arena holds the whole batch then every object is read from it, with its own SHA-256 and the job input', () => {
    const batch = jobs(4);
    const arena = Buffer.alloc(1 << 20);
    const objects = createEntityRenderer({ fxRates })(batch, arena);
    const want = expected(batch);
    expect(objects.map((o) => o.key)).toEqual(batch.flatMap((j) => (j.kind === 'card' ? RANGES.map((r) => cardKey(j.card.id, r)) : [])));
    expect(objects.every((o) => o.bytes === null)).toBe(true);
    objects.forEach((o, i) => {
      const bytes = objectBytes(o, arena);
      expect(bytes.equals(want[i]), o.key).toBe(true);
      expect(o.sha256).toBe(sha256Hex(want[i]));
      expect(o.length).toBe(want[i].length);
      expect(o.input).toBe(`input-${Math.floor(i / RANGES.length)}`);
    });
  });

  it('when the arena fills up then the objects after it come back in buffers of their own, byte for byte the same', () => {
    const batch = jobs(3);
    const want = expected(batch);
    const arena = Buffer.alloc(want[0].length + want[1].length + 10);
    const objects = createEntityRenderer({ fxRates })(batch, arena);
    expect(objects.slice(0, 2).every((o) => o.bytes === null)).toBe(true);
    expect(objects.slice(2).every((o) => o.bytes !== null)).toBe(true);
    objects.forEach((o, i) => expect(objectBytes(o, arena).equals(want[i]), o.key).toBe(true));
  });
});
