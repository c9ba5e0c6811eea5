import { describe, expect, it } from 'vitest';
import { summarizePrices } from '../../../compiler/render/price-summary.js';
import { series } from './entity-fixtures.js';

const summarize = (start: string, values: (number | null)[]) => summarizePrices(series('card', 'c', start, values));

describe('summarizePrices', () => {
  it('velocity is (now - 24 h ago) / 24 h ago, 4 decimals', () => {
    expect(summarize('2026-11-18', [100, 200, 250])).toMatchObject({ lastDate: '2026-11-20', lastCents: 250, previousCents: 200, velocity24h: 0.25 });
    // (200 - 300) / 300 = -0.33333
    expect(summarize('2026-11-19', [300, 200])?.velocity24h).toBe(-0.3333);
    // (1000 - 999) / 999 = 0.001001
    expect(summarize('2026-11-19', [999, 1000])?.velocity24h).toBe(0.001);
  });

  it('when the day before has no price then previousCents and velocity are null', () => {
    expect(summarize('2026-11-18', [100, null, 150])).toMatchObject({ previousCents: null, velocity24h: null });
    expect(summarize('2026-11-18', [150])).toMatchObject({ previousCents: null, velocity24h: null });
  });

  it('when the price 24 h ago is 0 then velocity is null but previousCents is kept', () => {
    expect(summarize('2026-11-18', [0, 50])).toMatchObject({ previousCents: 0, velocity24h: null });
  });

  it('the last price is the last non-null one', () => {
    expect(summarize('2026-11-18', [100, 120, null, null])).toMatchObject({ lastDate: '2026-11-19', lastCents: 120, previousCents: 100, velocity24h: 0.2 });
  });

  it('recentDaily holds the 30 days ending at the last price, null-padded before the series', () => {
    const s = summarize('2026-11-18', [100, null, 250, null]);
    expect(s?.recentDaily).toHaveLength(30);
    expect(s?.recentDaily.slice(27)).toEqual([100, null, 250]);
    expect(s?.recentDaily.slice(0, 27).every((v) => v === null)).toBe(true);
    const long = summarize('2026-01-01', Array.from({ length: 40 }, (_, i) => i));
    expect(long?.recentDaily).toEqual(Array.from({ length: 30 }, (_, i) => i + 10));
  });

  it('when the series is marked synthetic: true then the summary says synthetic; unmarked, null or false is observed', () => {
    const made = series('card', 'c', '2026-11-19', [100, 110]);
    expect(summarizePrices({ ...made, synthetic: true })?.synthetic).toBe(true);
    expect(summarizePrices({ ...made, synthetic: false })?.synthetic).toBe(false);
    expect(summarizePrices({ ...made, synthetic: null })?.synthetic).toBe(false);
    expect(summarizePrices(made)?.synthetic).toBe(false);
  });

  it('a series without any price has no summary', () => {
    expect(summarize('2026-11-18', [null, null])).toBeNull();
    expect(summarize('2026-11-18', [])).toBeNull();
  });
});
