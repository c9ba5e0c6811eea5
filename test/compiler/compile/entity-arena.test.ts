/**
 * A render thread's batch comes back in an arena of shared memory, not one buffer per object
 * (entity-jobs.ts): the objects read back from the arena must be exactly what gzip gives for each
 * document, also when the arena fills up and the rest come back in buffers of their own.
 */
import { describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { createEntityRenderer, INPUT_ARENA_BYTES, objectBytes, type EntityJob } from '../../../compiler/compile/entity-jobs.js';
import { createEntityPool } from '../../../compiler/compile/pool.js';
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

describe('aggregate documents handed to a render thread', () => {
  it.each(['worker', 'inline'] as const)('when documents go to the pool (%s) then each comes back as gzip of its JSON, those written into the input arena and those too big for it alike', async (mode) => {
    const docs: { key: string; json: string; input: string }[] = [
      { key: 'v1/a.json.gz', json: JSON.stringify({ name: 'plain' }), input: 'i-a' },
      // Beyond Latin-1 (two-byte strings) and astral characters: UTF-8 of 2, 3 and 4 bytes.
      { key: 'v1/b.json.gz', json: JSON.stringify({ name: 'Ōkami — 狼 🐺', n: [1, 2, 3] }), input: 'i-b' },
      // More than an input arena (INPUT_ARENA_BYTES): sent as a string.
      { key: 'v1/c.json.gz', json: JSON.stringify({ pad: 'x'.repeat(INPUT_ARENA_BYTES + 10) }), input: 'i-c' },
      { key: 'v1/d.json.gz', json: JSON.stringify({ name: 'after the big one', é: true }), input: 'i-d' },
    ];
    const got = new Map<string, { bytes: Buffer; sha256: string; input: string }>();
    const pool = createEntityPool({ fxRates }, 1, (objects, _jobs, arena) => {
      for (const o of objects) got.set(o.key, { bytes: Buffer.from(objectBytes(o, arena)), sha256: o.sha256, input: o.input });
    }, mode);
    try {
      // Twice, so the second batch writes over the input arena of the first.
      for (let round = 0; round < 2; round++) {
        got.clear();
        await pool.submit(docs.map((d) => ({ kind: 'document', ...d })));
        await pool.settle();
        for (const d of docs) {
          const o = got.get(d.key)!;
          expect(gunzipSync(o.bytes).toString('utf8'), d.key).toBe(d.json);
          expect(o.bytes.equals(gzip(d.json))).toBe(true);
          expect(o.sha256).toBe(sha256Hex(o.bytes));
          expect(o.input).toBe(d.input);
        }
      }
    } finally {
      await pool.drain();
    }
  });
});
