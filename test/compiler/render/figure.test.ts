import { describe, expect, it } from 'vitest';
import { renderFigure } from '../../../compiler/render/figure.js';
import { createFxLookup } from '../../../compiler/render/fx.js';
import { stableJson } from '../../../snapshots/codec.js';
import { CatalogError } from '../../../snapshots/errors.js';
import { figure, figureSeries, keyPaths, series, walk, weekdayRates } from './entity-fixtures.js';

const fx = createFxLookup(weekdayRates('2024-01-01', '2026-11-20'));
const ts = (date: string) => `${date}T00:00:00.000Z`;

describe('figure document', () => {
  it('when the price series was generated for a demo then the figure says synthetic: true', () => {
    const made = { ...series('figure', 'fig-moonlit-07', '2026-11-20', [4200, 4300]), synthetic: true };
    expect(renderFigure({ figure: figure(), series: figureSeries, prices: made, fx }).data.prices?.synthetic).toBe(true);
    expect(renderFigure({ figure: figure(), series: figureSeries, prices: { ...made, synthetic: false }, fx }).data.prices?.synthetic).toBe(false);
  });

  it('carries the figure, its series and rarity; unpriced: null blocks and asOf = addedAt', () => {
    const doc = renderFigure({ figure: figure(), series: figureSeries, prices: null, fx });
    expect(doc).toMatchObject({ kind: 'figure', asOf: ts('2025-02-20'), page: null, warnings: [] });
    expect(doc.data).toEqual({
      id: 'fig-moonlit-07', name: 'Night Gardener', rarity: 'secret',
      imageUrl: 'https://img.example.com/figures/fs-moonlit/fig-moonlit-07.png',
      releasedAt: ts('2025-03-01'), addedAt: ts('2025-02-20'),
      series: { id: 'fs-moonlit', name: 'Moonlit Garden Blind Box' },
      prices: null, fx: null,
      history: { name: '12mo', from: null, to: null, resolution: 'week', points: [], aggregates: { minCents: null, maxCents: null, avgCents: null, changeCents: null, changePct: null } },
      aggregates30d: { minCents: null, maxCents: null, avgCents: null, changeCents: null, changePct: null },
    });
  });

  it('history is one year of ISO weeks; aggregates30d covers only the last 30 days', () => {
    // 40 days from Wednesday 2026-10-14 to Sunday 2026-11-22: 1000 for 10 days, then 2000 + i.
    const values = Array.from({ length: 40 }, (_, i) => (i < 10 ? 1000 : 2000 + i));
    const doc = renderFigure({ figure: figure(), series: figureSeries, prices: series('figure', 'fig-moonlit-07', '2026-10-14', values), fx });
    expect(doc.asOf).toBe(ts('2026-11-22'));
    expect(doc.data.history).toMatchObject({
      name: '12mo', from: ts('2025-11-23'), to: ts('2026-11-22'), resolution: 'week',
      points: [[ts('2026-10-18'), 1000], [ts('2026-10-25'), 2011], [ts('2026-11-01'), 2018], [ts('2026-11-08'), 2025], [ts('2026-11-15'), 2032], [ts('2026-11-22'), 2039]],
      aggregates: { minCents: 1000, maxCents: 2039, changeCents: 1039, changePct: 103.9 },
    });
    // Last 30 days = i 10..39 = 2010..2039: mean 2024.5 → 2025, change 29, 29 / 2010 = 1.4428 %
    expect(doc.data.aggregates30d).toEqual({ minCents: 2010, maxCents: 2039, avgCents: 2025, changeCents: 29, changePct: 1.44 });
    expect(doc.data.prices).toMatchObject({ marketCents: 2039, previousCents: 2038, change24hCents: 1, velocity24h: 0.0005 });
    // Sunday price: Friday 2026-11-20 rate.
    expect(doc.data.fx?.eur?.date).toBe(ts('2026-11-20'));
  });

  it('priced, unpriced and one-point figures have the same keys; renders are byte-identical', () => {
    const priced = renderFigure({ figure: figure(), series: figureSeries, prices: walk('figure', 'fig-moonlit-07', '2026-11-20', 500), fx });
    const single = renderFigure({ figure: figure(), series: figureSeries, prices: series('figure', 'fig-moonlit-07', '2026-11-20', [4200]), fx });
    const unpriced = renderFigure({ figure: figure({ imageUrl: null }), series: figureSeries, prices: null, fx });
    expect(keyPaths(single)).toEqual(keyPaths(priced));
    const strip = (paths: string[]) => paths.filter((p) => !/^\.data\.(prices|fx)\./.test(p) && !p.startsWith('.data.history.points'));
    expect(strip(keyPaths(unpriced))).toEqual(strip(keyPaths(priced)));
    const again = renderFigure({ figure: figure(), series: figureSeries, prices: walk('figure', 'fig-moonlit-07', '2026-11-20', 500), fx });
    expect(stableJson(again)).toBe(stableJson(priced));
    expect(priced.data.history.points.length).toBeLessThanOrEqual(53);
  });

  it('rejects a card series or a foreign figure series', () => {
    expect(() => renderFigure({ figure: figure(), series: figureSeries, prices: series('card', 'fig-moonlit-07', '2026-11-20', [1]), fx })).toThrow(CatalogError);
    expect(() => renderFigure({ figure: figure({ seriesId: 'other' }), series: figureSeries, prices: null, fx })).toThrow(CatalogError);
  });
});
