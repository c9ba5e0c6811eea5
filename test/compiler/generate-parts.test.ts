/**
 * The generator's building blocks, where a property is easier to pin down than in a whole catalog:
 * seeded streams, the price walk, name and code uniqueness, the plan's arithmetic.
 */
import { describe, expect, it } from 'vitest';
import { rngFor } from '../../compiler/generate/prng.js';
import { priceWalk, watchersFor } from '../../compiler/generate/prices.js';
import { personName, setCodeFor } from '../../compiler/generate/names.js';
import { apportion, cardIdAt, planCatalog, seriesRarities } from '../../compiler/generate/plan.js';
import { SLUG_PATTERN, slugify } from '../../snapshots/ids.js';

describe('seeded streams', () => {
  it('repeat for the same seed and labels, and differ for other labels or seeds', () => {
    const draw = (seed: number, ...labels: (string | number)[]) => {
      const rng = rngFor(seed, ...labels);
      return Array.from({ length: 5 }, () => rng.next());
    };
    expect(draw(1, 'card', 3)).toEqual(draw(1, 'card', 3));
    expect(draw(1, 'card', 3)).not.toEqual(draw(1, 'card', 4));
    expect(draw(1, 'card', 3)).not.toEqual(draw(2, 'card', 3));
    for (const x of draw(9, 'x')) expect(x >= 0 && x < 1).toBe(true);
  });

  it('draw integers over the whole inclusive range', () => {
    const rng = rngFor(1, 'ints');
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i += 1) seen.add(rng.int(1, 6));
    expect([...seen].sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('priceWalk', () => {
  it('gives one positive integer or null per day, ends observed, and stays near the target price', () => {
    const finals: number[] = [];
    for (let i = 0; i < 300; i += 1) {
      const series = priceWalk(rngFor(1, 'walk', i), 1000, 900);
      expect(series).toHaveLength(900);
      expect(series.every((v) => v === null || (Number.isInteger(v) && v >= 1))).toBe(true);
      expect(series[899]).not.toBeNull();
      expect(series[898]).not.toBeNull();
      finals.push(series[897] as number);
    }
    finals.sort((a, b) => a - b);
    const median = finals[150];
    expect(median).toBeGreaterThan(600);
    expect(median).toBeLessThan(1600);
  });

  it('handles a one-day history (a card added on asOf)', () => {
    expect(priceWalk(rngFor(1, 'one'), 50, 1)).toHaveLength(1);
  });

  it('gives expensive entries more watchers than bulk', () => {
    const mean = (cents: number) => {
      const rng = rngFor(1, 'watchers', cents);
      let sum = 0;
      for (let i = 0; i < 2000; i += 1) sum += watchersFor(rng, cents, false);
      return sum / 2000;
    };
    expect(mean(20_000)).toBeGreaterThan(5 * mean(20));
  });
});

describe('names and codes', () => {
  it('gives distinct artist names (and slugs) for every index, well past the first/last name pairs', () => {
    const names = Array.from({ length: 12_000 }, (_, i) => personName(i, 17));
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(names.map(slugify)).size).toBe(names.length);
  });

  it('makes unique lowercase set codes even when names collide', () => {
    const taken = new Set<string>();
    const rng = rngFor(1, 'codes');
    for (let i = 0; i < 500; i += 1) {
      const code = setCodeFor('Shadows of Lórien Vale', taken, rng);
      expect(code).toMatch(SLUG_PATTERN);
      expect(taken.has(code)).toBe(false);
      taken.add(code);
    }
    expect(taken.has('slv')).toBe(true);
  });
});

describe('plan', () => {
  it('apportions exactly', () => {
    expect(apportion(5000, [0.4, 0.3, 0.15, 0.15])).toEqual([2000, 1500, 750, 750]);
    for (const n of [1, 2, 3, 7, 999, 1001]) expect(apportion(n, [0.4, 0.3, 0.15, 0.15]).reduce((a, b) => a + b)).toBe(n);
  });

  it('gives each series one secret and more commons than anything else', () => {
    for (let size = 6; size <= 15; size += 1) {
      const r = seriesRarities(size);
      expect(r).toHaveLength(size);
      expect(r.filter((x) => x === 'secret')).toHaveLength(1);
      const count = (k: string) => r.filter((x) => x === k).length;
      for (const k of ['uncommon', 'rare', 'ultra']) expect(count('common')).toBeGreaterThanOrEqual(count(k));
    }
  });

  it('sizes sets per game and finds card ids by index without making cards', () => {
    const plan = planCatalog({ cards: 20_000, seed: 3, asOf: '2026-11-20' });
    expect(plan.sets.reduce((n, s) => n + s.size, 0)).toBe(20_000);
    const sizes = (game: string) => plan.sets.filter((s) => s.game === game).slice(0, -1).map((s) => s.size);
    for (const s of sizes('mtg')) expect(s >= 220 && s <= 300).toBe(true);
    for (const s of sizes('pokemon')) expect(s >= 100 && s <= 200).toBe(true);
    for (const s of sizes('lorcana')) expect(s >= 204 && s <= 216).toBe(true);
    expect(cardIdAt(plan, 0)).toBe(`mtg-${plan.sets[0].code}-1`);
    const last = plan.sets.at(-1)!;
    expect(cardIdAt(plan, 19_999)).toBe(last.profile.cardId(last, last.size - 1));
    for (const s of plan.sets) expect(s.record.releasedAt <= '2026-11-20').toBe(true);
  });

  it('handles a one-card catalog', () => {
    const plan = planCatalog({ cards: 1, seed: 1, asOf: '2026-11-20' });
    expect(plan.sets).toHaveLength(1);
    expect(plan.series.length).toBe(3);
    expect(plan.users).toBe(50);
  });
});
