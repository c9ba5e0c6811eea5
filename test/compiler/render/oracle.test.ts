import { describe, expect, it } from 'vitest';
import { renderOracle } from '../../../compiler/render/oracle.js';
import type { PriceSummary } from '../../../compiler/render/types.js';
import { stableJson } from '../../../snapshots/codec.js';
import { CatalogError } from '../../../snapshots/errors.js';
import type { SetRecord } from '../../../snapshots/records.js';
import { card, keyPaths } from './entity-fixtures.js';

const ts = (date: string) => `${date}T00:00:00.000Z`;
const ORACLE = '4457ed35-7c10-48c8-9776-456485fdf070';

const sets: Record<string, SetRecord> = {
  lea: { game: 'mtg', code: 'lea', name: 'Limited Edition Alpha', releasedAt: '1993-08-05', series: null, printedTotal: null },
  m10: { game: 'mtg', code: 'm10', name: 'Magic 2010', releasedAt: '2009-07-17', series: 'Core Sets', printedTotal: 249 },
  m21: { game: 'mtg', code: 'm21', name: 'Core Set 2021', releasedAt: '2020-07-03', series: 'Core Sets', printedTotal: 274 },
  sld: { game: 'mtg', code: 'sld', name: 'Secret Lair Drop', releasedAt: '2020-07-03', series: null, printedTotal: null },
};

const summary = (lastCents: number, lastDate = '2026-11-20', synthetic = false): PriceSummary => ({
  lastDate, lastCents, previousCents: null, velocity24h: null, recentDaily: [], synthetic,
});

function printing(id: string, setCode: string, price: number | null, extra: { name?: string; addedAt?: string; lastDate?: string; synthetic?: boolean } = {}) {
  return {
    card: card({ id, setCode, name: extra.name ?? 'Lightning Bolt', addedAt: extra.addedAt ?? '2020-06-20', oracleId: ORACLE }),
    set: sets[setCode],
    summary: price === null ? null : summary(price, extra.lastDate, extra.synthetic),
  };
}

describe('oracle document', () => {
  it('lists printings by set release date then id, named after the most recent', () => {
    const doc = renderOracle({ oracleId: ORACLE, printings: [
      printing('sld-b', 'sld', 900, { name: 'Lightning Bolt (newest)' }),
      printing('m21-162', 'm21', 150),
      printing('lea-161', 'lea', 45_000, { name: 'Lightning Bolt (old wording)' }),
      printing('m10-146', 'm10', null),
    ] });
    expect(doc.kind).toBe('oracle');
    expect(doc.data.printings.map((p) => p.id)).toEqual(['lea-161', 'm10-146', 'm21-162', 'sld-b']);
    expect(doc.data).toMatchObject({ id: ORACLE, name: 'Lightning Bolt (newest)', game: 'mtg', printingsCount: 4 });
    expect(doc.data.printings[0]).toEqual({
      id: 'lea-161', name: 'Lightning Bolt (old wording)', set: { code: 'lea', name: 'Limited Edition Alpha', releasedAt: ts('1993-08-05') },
      number: '162', rarity: 'uncommon', artist: 'Christopher Rush',
      imageUrl: 'https://cards.scryfall.io/large/front/e/3/e3285e6b-3e79-4d7c-bf96-d920f973b122.jpg',
      marketCents: 45_000, priceDate: ts('2026-11-20'), priceSynthetic: false,
    });
    expect(doc.data.printings[1]).toMatchObject({ id: 'm10-146', marketCents: null, priceDate: null, priceSynthetic: null });
  });

  it('when a printing\'s price was made up for a demo then the printing and the aggregate naming it say priceSynthetic: true', () => {
    const doc = renderOracle({ oracleId: ORACLE, printings: [
      printing('made-up', 'm21', 100, { synthetic: true }), printing('observed', 'm10', 300), printing('unpriced', 'lea', null),
    ] });
    expect(doc.data.printings.map((p) => [p.id, p.priceSynthetic])).toEqual([['unpriced', null], ['observed', false], ['made-up', true]]);
    expect(doc.data.aggregates.cheapest).toEqual({ id: 'made-up', marketCents: 100, priceSynthetic: true });
    expect(doc.data.aggregates.highest).toEqual({ id: 'observed', marketCents: 300, priceSynthetic: false });
  });

  it('median of an odd count is the middle price; cheapest and highest name their printing', () => {
    const doc = renderOracle({ oracleId: ORACLE, printings: [
      printing('a', 'm21', 300), printing('b', 'm21', 100), printing('c', 'm21', 200), printing('d', 'm10', null),
    ] });
    expect(doc.data.aggregates).toEqual({
      pricedPrintings: 3, cheapest: { id: 'b', marketCents: 100, priceSynthetic: false }, medianCents: 200, highest: { id: 'a', marketCents: 300, priceSynthetic: false },
    });
  });

  it('median of an even count is the rounded mean of the two middle prices', () => {
    const doc = renderOracle({ oracleId: ORACLE, printings: [
      printing('a', 'm21', 100), printing('b', 'm21', 201), printing('c', 'm21', 400), printing('d', 'm21', 150),
    ] });
    // sorted 100, 150, 201, 400: (150 + 201) / 2 = 175.5 → 176
    expect(doc.data.aggregates).toMatchObject({ pricedPrintings: 4, medianCents: 176 });
    const two = renderOracle({ oracleId: ORACLE, printings: [printing('a', 'm21', 10), printing('b', 'm21', 20)] });
    expect(two.data.aggregates.medianCents).toBe(15);
  });

  it('ties for cheapest or highest go to the lower id', () => {
    const doc = renderOracle({ oracleId: ORACLE, printings: [
      printing('z', 'm21', 100), printing('y', 'm21', 500), printing('a', 'm21', 100), printing('b', 'm21', 500),
    ] });
    expect(doc.data.aggregates.cheapest).toEqual({ id: 'a', marketCents: 100, priceSynthetic: false });
    expect(doc.data.aggregates.highest).toEqual({ id: 'b', marketCents: 500, priceSynthetic: false });
  });

  it('asOf is the latest price date among printings, else the latest addedAt', () => {
    const priced = renderOracle({ oracleId: ORACLE, printings: [
      printing('a', 'm21', 100, { lastDate: '2026-11-18', addedAt: '2026-11-30' }), printing('b', 'm10', 200, { lastDate: '2026-11-20' }),
    ] });
    expect(priced.asOf).toBe(ts('2026-11-20'));
    const unpriced = renderOracle({ oracleId: ORACLE, printings: [
      printing('a', 'm21', null, { addedAt: '2021-01-05' }), printing('b', 'm10', null, { addedAt: '2022-03-09' }),
    ] });
    expect(unpriced.asOf).toBe(ts('2022-03-09'));
    expect(unpriced.data.aggregates).toEqual({ pricedPrintings: 0, cheapest: null, medianCents: null, highest: null });
  });

  it('has the same keys priced or not, and renders the same bytes whatever the input order', () => {
    const list = [printing('a', 'm21', 100), printing('b', 'lea', 300), printing('c', 'sld', 200)];
    const one = renderOracle({ oracleId: ORACLE, printings: list });
    const reversed = renderOracle({ oracleId: ORACLE, printings: [...list].reverse() });
    expect(stableJson(reversed)).toBe(stableJson(one));
    const unpriced = renderOracle({ oracleId: ORACLE, printings: [printing('a', 'm21', null)] });
    const strip = (paths: string[]) => paths.filter((p) => !/^\.data\.aggregates\.(cheapest|highest)\./.test(p));
    expect(strip(keyPaths(unpriced))).toEqual(strip(keyPaths(one)));
  });

  it('an oracle without printings is a compiler bug', () => {
    expect(() => renderOracle({ oracleId: ORACLE, printings: [] })).toThrow(CatalogError);
  });
});
