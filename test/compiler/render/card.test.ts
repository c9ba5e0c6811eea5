import { describe, expect, it } from 'vitest';
import { renderCard, renderCardRanges } from '../../../compiler/render/card.js';
import { createFxLookup } from '../../../compiler/render/fx.js';
import { stableJson } from '../../../snapshots/codec.js';
import { CatalogError } from '../../../snapshots/errors.js';
import { RANGES } from '../../../snapshots/records.js';
import { card, keyPaths, series, set, walk, weekdayRates } from './entity-fixtures.js';

const fx = createFxLookup(weekdayRates('2023-01-02', '2026-11-20'));
const ts = (date: string) => `${date}T00:00:00.000Z`;

describe('card document', () => {
  it('carries the printing, its set and its artist', () => {
    const doc = renderCard({ card: card(), set, prices: null, fx }, '30d');
    expect(doc).toMatchObject({ apiVersion: 'v1', kind: 'card', schemaVersion: 1, page: null, warnings: [] });
    expect(doc.data).toMatchObject({
      id: 'mtg-m21-162', game: 'mtg', name: 'Lightning Bolt', number: '162', rarity: 'uncommon',
      releasedAt: ts('2020-07-03'), addedAt: ts('2020-06-20'), oracleId: '4457ed35-7c10-48c8-9776-456485fdf070',
      artist: { name: 'Christopher Rush', slug: 'christopher-rush' },
      set: { game: 'mtg', code: 'm21', name: 'Core Set 2021', releasedAt: ts('2020-07-03') },
      prices: null, fx: null,
    });
    expect(renderCard({ card: card({ artist: null }), set, prices: null, fx }, '30d').data.artist).toBeNull();
    expect(renderCard({ card: card({ artist: 'Hervé Müller' }), set, prices: null, fx }, '30d').data.artist).toEqual({ name: 'Hervé Müller', slug: 'herve-muller' });
  });

  it('prices: market, 24 h change and conversions at the latest rate on or before the price day', () => {
    // Last price on Sunday 2026-11-22: rates exist only up to Friday 2026-11-20.
    const rates = createFxLookup([
      { date: '2026-11-19', currency: 'EUR', perUsd: 0.9, source: 'ecb' },
      { date: '2026-11-20', currency: 'EUR', perUsd: 0.92, source: 'ecb' },
      { date: '2026-11-23', currency: 'EUR', perUsd: 0.99, source: 'ecb' },
      { date: '2026-11-20', currency: 'GBP', perUsd: 0.79, source: 'boe' },
      { date: '2026-11-20', currency: 'CAD', perUsd: 1.3721, source: 'ecb' },
    ]);
    const doc = renderCard({ card: card(), set, prices: series('card', 'mtg-m21-162', '2026-11-20', [1000, 1100, 1234]), fx: rates }, '30d');
    expect(doc.data.prices).toEqual({
      marketCents: 1234,
      marketCentsEur: 1135, // 1234 * 0.92 = 1135.28
      marketCentsGbp: 975, // 1234 * 0.79 = 974.86
      marketCentsCad: 1693, // 1234 * 1.3721 = 1693.17
      marketCentsAud: null, // no AUD rate at all
      priceDate: ts('2026-11-22'),
      previousCents: 1100,
      change24hCents: 134,
      velocity24h: 0.1218, // 134 / 1100 = 0.121818
      synthetic: false,
    });
    expect(doc.data.fx).toEqual({
      eur: { rate: 0.92, date: ts('2026-11-20'), source: 'ecb' },
      gbp: { rate: 0.79, date: ts('2026-11-20'), source: 'boe' },
      cad: { rate: 1.3721, date: ts('2026-11-20'), source: 'ecb' },
      aud: null,
    });
  });

  it('when the price series was generated for a demo then every range says synthetic: true', () => {
    const made = { ...series('card', 'mtg-m21-162', '2026-11-20', [1000, 1100, 1234]), synthetic: true };
    for (const doc of renderCardRanges({ card: card(), set, prices: made, fx }).values()) expect(doc.data.prices?.synthetic).toBe(true);
    const observed = { ...made, synthetic: null };
    expect(renderCard({ card: card(), set, prices: observed, fx }, '30d').data.prices?.synthetic).toBe(false);
  });

  it('range: the window, its points and aggregates', () => {
    const doc = renderCard({ card: card(), set, prices: series('card', 'mtg-m21-162', '2026-11-20', [1000, null, 1300]), fx }, '30d');
    expect(doc.data.range).toEqual({
      name: '30d', from: ts('2026-10-24'), to: ts('2026-11-22'), resolution: 'day',
      points: [[ts('2026-11-20'), 1000], [ts('2026-11-22'), 1300]],
      aggregates: { minCents: 1000, maxCents: 1300, avgCents: 1150, changeCents: 300, changePct: 30 },
    });
  });

  it('asOf is the last price day (not today, not the last day of the series), else addedAt', () => {
    const priced = renderCard({ card: card(), set, prices: series('card', 'mtg-m21-162', '2026-11-18', [500, 600, null]), fx }, 'all');
    expect(priced.asOf).toBe(ts('2026-11-19'));
    expect(renderCard({ card: card(), set, prices: null, fx }, 'all').asOf).toBe(ts('2020-06-20'));
    expect(renderCard({ card: card(), set, prices: series('card', 'mtg-m21-162', '2026-11-18', [null]), fx }, 'all').asOf).toBe(ts('2020-06-20'));
  });

  it('every card document has the same keys: priced, unpriced, one price point, every range', () => {
    const priced = renderCardRanges({ card: card(), set, prices: walk('card', 'mtg-m21-162', '2026-11-20', 900), fx });
    const unpriced = renderCardRanges({ card: card({ artist: null, imageUrl: null, oracleId: null }), set, prices: null, fx });
    const single = renderCardRanges({ card: card(), set, prices: series('card', 'mtg-m21-162', '2026-11-20', [999]), fx });
    const reference = keyPaths(priced.get('30d'));
    expect(reference).toContain('.data.prices.velocity24h');
    expect(reference).toContain('.data.fx.eur.source');
    expect(reference).toContain('.data.range.aggregates.changePct');
    const strip = (paths: string[]) => paths.filter((p) => !/^\.data\.(prices|fx|artist)\./.test(p) && !p.startsWith('.data.range.points'));
    for (const range of RANGES) {
      expect(keyPaths(priced.get(range))).toEqual(reference);
      expect(keyPaths(single.get(range))).toEqual(reference);
      // Unpriced: the same top-level keys with null values (nested keys of null blocks do not exist).
      expect(strip(keyPaths(unpriced.get(range)))).toEqual(strip(reference));
    }
    const one = single.get('30d')!.data;
    expect(one.prices).toMatchObject({ marketCents: 999, previousCents: null, change24hCents: null, velocity24h: null });
    expect(one.range.aggregates).toEqual({ minCents: 999, maxCents: 999, avgCents: 999, changeCents: 0, changePct: 0 });
    expect(unpriced.get('3mo')!.data.range).toMatchObject({ from: null, to: null, points: [], aggregates: { minCents: null } });
  });

  it('is deterministic: two renders give the same bytes, and renderCard equals renderCardRanges', () => {
    const input = () => ({ card: card(), set, prices: walk('card', 'mtg-m21-162', '2026-11-20', 400), fx });
    const all = renderCardRanges(input());
    expect([...all.keys()]).toEqual([...RANGES]);
    for (const range of RANGES) {
      expect(stableJson(renderCard(input(), range))).toBe(stableJson(all.get(range)));
      expect(stableJson(renderCardRanges(input()).get(range))).toBe(stableJson(all.get(range)));
    }
  });

  it('long series: daily 30d/3mo, weekly 6mo/12mo, monthly all', () => {
    const docs = renderCardRanges({ card: card(), set, prices: walk('card', 'mtg-m21-162', '2026-11-20', 913), fx });
    const shape = RANGES.map((r) => [docs.get(r)!.data.range.resolution, docs.get(r)!.data.range.points.length]);
    // 6mo: 182 days touch 27 ISO weeks; 12mo: 365 days touch 53; all: 2024-05-22..2026-11-20 touches 31 months.
    expect(shape).toEqual([['day', 30], ['day', 91], ['week', 27], ['week', 53], ['month', 31]]);
  });

  it('stays within the 2-5 KB budget at every range (2.5 years, 10 days, no prices)', () => {
    const sizes = (prices: ReturnType<typeof walk> | null) =>
      RANGES.map((r) => Buffer.byteLength(stableJson(renderCard({ card: card(), set, prices, fx }, r))));
    for (const base of [45, 12_345, 1_234_567]) { // 2-, 5- and 7-digit prices: narrow to widest points
      for (const bytes of sizes(walk('card', 'mtg-m21-162', '2026-11-20', 913, base))) {
        expect(bytes).toBeGreaterThanOrEqual(2048);
        expect(bytes).toBeLessThanOrEqual(5120);
      }
    }
    // A 10-day series has at most 10 points, an unpriced card none: both are smaller, never larger.
    for (const bytes of [...sizes(walk('card', 'mtg-m21-162', '2026-11-20', 10)), ...sizes(null)]) {
      expect(bytes).toBeLessThanOrEqual(5120);
    }
  });

  it('when long names and 7-digit prices would pass 5 KB then the buckets widen instead', () => {
    const bulky = {
      card: card({ name: 'Asmoranomardicadaistinaculdacar, the Long-Named Mythic of the Endless Test Fixture', imageUrl: `https://cards.example.com/images/${'x'.repeat(300)}.jpg` }),
      set: { ...set, name: 'Commander Legends: Battle for Baldur\'s Gate Extended Art Collector Edition' },
      prices: walk('card', 'mtg-m21-162', '2026-11-20', 913, 1_234_567),
      fx,
    };
    const docs = renderCardRanges(bulky);
    for (const range of RANGES) expect(Buffer.byteLength(stableJson(docs.get(range)))).toBeLessThanOrEqual(5120);
    expect(docs.get('3mo')!.data.range.resolution).toBe('week');
    expect(docs.get('30d')!.data.range.resolution).toBe('day');
  });

  it('a ten-year series widens `all` to quarters and stays within budget', () => {
    const doc = renderCard({ card: card(), set, prices: walk('card', 'mtg-m21-162', '2026-11-20', 3700), fx }, 'all');
    expect(doc.data.range.resolution).toBe('quarter');
    expect(Buffer.byteLength(stableJson(doc))).toBeLessThanOrEqual(5120);
  });

  it('rejects a price series or set that belongs to another entity', () => {
    expect(() => renderCard({ card: card(), set, prices: series('card', 'other', '2026-11-20', [1]), fx }, '30d')).toThrow(CatalogError);
    expect(() => renderCard({ card: card(), set, prices: series('figure', 'mtg-m21-162', '2026-11-20', [1]), fx }, '30d')).toThrow(CatalogError);
    expect(() => renderCard({ card: card({ setCode: 'lea' }), set, prices: null, fx }, '30d')).toThrow(CatalogError);
  });
});
