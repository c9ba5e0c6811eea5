import { describe, expect, it } from 'vitest';
import type { PullObservationRecord } from '../../../snapshots/records.js';
import { computePullPriors, PULL_PRIOR_STRENGTH, renderAllPullStats } from '../../../compiler/render/pull-stats.js';
import { figure, series } from './fixtures.js';
import { numericQuantile } from './beta-numeric.js';

const report = (id: string, seriesId: string, boxes: number, pulls: Record<string, number>, userId: string | null = `reporter-${id}`): PullObservationRecord =>
  ({ id, seriesId, userId, observedAt: `2026-10-0${id.slice(-1)}T09:00:00.000Z`, boxes, pulls });

// Series s1: A, B common, C rare. Series s2: D common, E rare. Series s3: no reports, G secret, H ultra.
const figures = [
  figure('A', 's1'), figure('B', 's1'), figure('C', 's1', { rarity: 'rare' }),
  figure('D', 's2'), figure('E', 's2', { rarity: 'rare' }),
  figure('G', 's3', { rarity: 'secret' }), figure('H', 's3', { rarity: 'ultra' }),
];
const allSeries = [series('s1'), series('s2'), series('s3')];
const reports = [
  report('r1', 's1', 10, { A: 4, B: 5, C: 1 }),
  report('r2', 's1', 10, { A: 6, B: 3, C: 0 }),
  // A pull of a figure of another series (A in an s2 report) cannot come from s2's boxes: ignored.
  report('r3', 's2', 20, { D: 12, E: 2, A: 7 }),
];

describe('computePullPriors', () => {
  it('when tiers have data then p_t pools pulls over boxes across series', () => {
    const priors = computePullPriors(reports, figures);
    // common: (A 10 + B 8 + D 12) / (20 + 20 + 20) = 0.5; rare: (C 1 + E 2) / (20 + 20) = 0.075.
    expect(priors.get('common')).toBe(0.5);
    expect(priors.get('rare')).toBeCloseTo(0.075, 15);
    // secret and ultra exist only in s3, which has no boxes: no data anywhere.
    expect(priors.get('secret')).toBeNull();
    expect(priors.get('ultra')).toBeNull();
  });
});

describe('renderAllPullStats', () => {
  const docs = renderAllPullStats(allSeries, figures, reports);
  const doc = (id: string) => docs.find((d) => d.seriesId === id)!.document;

  it('when a series has reports then the counts and the header are the hand-computed ones', () => {
    const s1 = doc('s1');
    expect(s1.kind).toBe('pullStats');
    expect(s1.page).toBeNull();
    expect(s1.asOf).toBe('2026-10-03T09:00:00.000Z'); // latest report anywhere (priors pool all series)
    expect(s1.data).toMatchObject({
      series: { id: 's1', name: 'Series s1' }, reports: 2, boxesOpened: 20, method: 'beta-binomial', prior: { strength: 20 },
    });
    expect(s1.data.figures.map((f) => f.id)).toEqual(['A', 'B', 'C']);
  });

  it('when a rare figure was pulled once in 20 boxes then it is smoothed toward the rare prior', () => {
    const c = doc('s1').data.figures.find((f) => f.id === 'C')!;
    // a = 20 * 0.075 + 1 = 2.5; b = 20 * 0.925 + 20 - 1 = 37.5; mean = 2.5 / 40.
    expect(c).toMatchObject({ observed: 1, sampleSize: 20, rawRate: 0.05, smoothedRate: 0.0625, prior: { rate: 0.075, strength: PULL_PRIOR_STRENGTH } });
    expect(c.credibleInterval.level).toBe(0.95);
    expect(Math.abs(c.credibleInterval.low - numericQuantile(0.025, 2.5, 37.5))).toBeLessThanOrEqual(1e-6);
    expect(Math.abs(c.credibleInterval.high - numericQuantile(0.975, 2.5, 37.5))).toBeLessThanOrEqual(1e-6);
    expect(c.credibleInterval.low).toBeLessThan(c.smoothedRate);
    expect(c.credibleInterval.high).toBeGreaterThan(c.smoothedRate);
  });

  it('when a common figure matches its prior then the interval is symmetric around 0.5', () => {
    const a = doc('s1').data.figures.find((f) => f.id === 'A')!;
    // a = 10 + 10, b = 10 + 20 - 10: Beta(20, 20).
    expect(a).toMatchObject({ observed: 10, rawRate: 0.5, smoothedRate: 0.5 });
    expect(a.credibleInterval.low + a.credibleInterval.high).toBeCloseTo(1, 6);
    expect(Math.abs(a.credibleInterval.high - numericQuantile(0.975, 20, 20))).toBeLessThanOrEqual(1e-6);
    const b = doc('s1').data.figures.find((f) => f.id === 'B')!;
    expect(b.smoothedRate).toBe(0.45); // Beta(18, 22)
  });

  it('when a tier has no data anywhere then the prior falls back to 1 / figures in the series', () => {
    const s3 = doc('s3');
    expect(s3.data).toMatchObject({ reports: 0, boxesOpened: 0 });
    for (const f of s3.data.figures) {
      // p = 1/2, n = 0: Beta(10, 10), no raw rate.
      expect(f).toMatchObject({ observed: 0, sampleSize: 0, rawRate: null, smoothedRate: 0.5, prior: { rate: 0.5, strength: 20 } });
    }
    expect(s3.data.figures.map((f) => f.rarity)).toEqual(['ultra', 'secret']);
  });

  it('when a pull names a figure of another series then it is not counted', () => {
    expect(doc('s1').data.figures.find((f) => f.id === 'A')!.observed).toBe(10);
  });

  it('when a tier was never pulled anywhere then its figures collapse to 0 instead of failing', () => {
    const withZero = renderAllPullStats([series('z')], [figure('Z1', 'z'), figure('Z2', 'z', { rarity: 'secret' })], [
      report('r1', 'z', 5, { Z1: 5 }),
    ]);
    const z2 = withZero[0].document.data.figures.find((f) => f.id === 'Z2')!;
    expect(z2).toMatchObject({ rawRate: 0, smoothedRate: 0, credibleInterval: { level: 0.95, low: 0, high: 0 } });
  });

  it('when rendered then reporter ids never appear in any document', () => {
    const text = JSON.stringify(docs);
    expect(text).not.toContain('reporter-');
  });

  it('when rendered then every rate has at most 6 decimals', () => {
    for (const { document } of docs) {
      for (const f of document.data.figures) {
        for (const v of [f.rawRate, f.smoothedRate, f.credibleInterval.low, f.credibleInterval.high, f.prior.rate]) {
          if (v !== null) expect(Math.round(v * 1e6) / 1e6).toBe(v);
        }
      }
    }
  });
});
