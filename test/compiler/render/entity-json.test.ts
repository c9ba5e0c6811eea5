/**
 * The card and figure documents' canonical text written directly (render/entity-json.ts) must be
 * exactly stableJson of the object documents, byte for byte: every ETag depends on it. Compared on
 * a generated catalog (every card and figure of it, through the real loader), on edge cases and on
 * random records.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderCardRanges, renderCardRangesJson, type CardInput } from '../../../compiler/render/card.js';
import { renderFigure, renderFigureJson, type FigureInput } from '../../../compiler/render/figure.js';
import { createFxLookup } from '../../../compiler/render/fx.js';
import { generateCatalog } from '../../../compiler/generate/index.js';
import { loadCatalog, openSource, streamPrices } from '../../../compiler/source/index.js';
import { stableJson } from '../../../snapshots/codec.js';
import { dayNumber, dayString } from '../../../snapshots/dates.js';
import { RANGES, type FxRateRecord, type PriceSeriesRecord } from '../../../snapshots/records.js';
import { card, figure, figureSeries, series, set, walk, weekdayRates } from './entity-fixtures.js';

const fx = createFxLookup(weekdayRates('2023-01-02', '2026-11-20'));

function expectSameCard(input: CardInput): void {
  const docs = renderCardRanges(input);
  expect(renderCardRangesJson(input)).toEqual(RANGES.map((range) => stableJson(docs.get(range))));
}

function expectSameFigure(input: FigureInput): void {
  expect(renderFigureJson(input)).toBe(stableJson(renderFigure(input)));
}

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s ^ (s >>> 15), 1 | s) + 0x6d2b79f5) >>> 0) / 2 ** 32);
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('card and figure documents written directly', () => {
  it('equal stableJson of the object documents for every card and figure of a generated catalog', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'entity-json-'));
    dirs.push(dir);
    await generateCatalog({ out: dir, cards: 600, seed: 11, asOf: '2026-11-20' });
    const source = openSource(dir);
    const catalog = await loadCatalog(source, { maxRejects: 0 });
    const rates = createFxLookup(catalog.fxRates);
    const priced = { card: 0, figure: 0 };
    try {
      for await (const { record } of streamPrices(source, catalog)) {
        priced[record.entity]++;
        if (record.entity === 'card') {
          const c = catalog.cards.get(record.id)!;
          expectSameCard({ card: c, set: catalog.setsByKey.get(`${c.game}/${c.setCode}`)!, prices: record, fx: rates });
          expectSameCard({ card: c, set: catalog.setsByKey.get(`${c.game}/${c.setCode}`)!, prices: null, fx: rates });
        } else {
          const f = catalog.figures.get(record.id)!;
          expectSameFigure({ figure: f, series: catalog.figureSeries.get(f.seriesId)!, prices: record, fx: rates });
          expectSameFigure({ figure: f, series: catalog.figureSeries.get(f.seriesId)!, prices: null, fx: rates });
        }
      }
    } finally {
      await source.close();
    }
    expect(priced.card).toBeGreaterThan(500);
    expect(priced.figure).toBeGreaterThan(10);
  });

  it('escape strings as JSON.stringify does: quotes, backslashes, control characters, lone surrogates, U+2028, emoji', () => {
    for (const name of ['Jötun "Grunt" \\ 1', 'tab\there\nnewline\u0000\u001f', 'lone \ud800 and \udfff', 'sep \u2028\u2029', '🐉 ドラゴン', '']) {
      expectSameCard({ card: card({ name, artist: name, number: name }), set: { ...set, name }, prices: walk('card', 'mtg-m21-162', '2026-11-20', 400), fx });
      expectSameFigure({ figure: figure({ name }), series: { ...figureSeries, name }, prices: walk('figure', 'fig-moonlit-07', '2026-11-20', 40), fx });
    }
  });

  it('write nulls, empty histories and unknown dates as the object documents do', () => {
    const bare = card({ rarity: null, artist: null, oracleId: null, imageUrl: null, releasedAt: null });
    expectSameCard({ card: bare, set: { ...set, releasedAt: null }, prices: null, fx });
    expectSameCard({ card: bare, set, prices: series('card', bare.id, '2026-11-20', [null, null]), fx });
    expectSameCard({ card: bare, set, prices: series('card', bare.id, '2026-11-20', [null, 5, null]), fx });
    expectSameCard({ card: bare, set, prices: series('card', bare.id, '2026-11-20', [0, 0]), fx });
    const plain = figure({ rarity: null, imageUrl: null, releasedAt: null });
    expectSameFigure({ figure: plain, series: figureSeries, prices: null, fx });
    expectSameFigure({ figure: plain, series: figureSeries, prices: series('figure', plain.id, '2026-11-20', [null, 7]), fx });
    // No rates at all: every conversion and provenance is null.
    expectSameCard({ card: card(), set, prices: walk('card', 'mtg-m21-162', '2026-11-20', 30), fx: createFxLookup([]) });
  });

  it('write numbers as JSON.stringify does: huge, tiny, fractional rates, synthetic series, long histories', () => {
    const rates: FxRateRecord[] = [
      { date: '2020-01-01', currency: 'EUR', perUsd: 1e-7, source: 'test "quoted"' },
      { date: '2020-01-01', currency: 'GBP', perUsd: 123456789.125, source: 'x' },
      { date: '2020-01-01', currency: 'CAD', perUsd: 0.1 + 0.2, source: 'y' },
    ];
    const odd = createFxLookup(rates);
    const big: PriceSeriesRecord = { ...walk('card', 'mtg-m21-162', '2026-11-20', 2000, 9_000_000_000), synthetic: true };
    expectSameCard({ card: card(), set, prices: big, fx: odd });
    expectSameCard({ card: card(), set, prices: series('card', 'mtg-m21-162', '2026-11-18', [1, 3, 2]), fx: odd });
    expectSameFigure({ figure: figure(), series: figureSeries, prices: { ...walk('figure', 'fig-moonlit-07', '2026-11-20', 900, 1), synthetic: true }, fx: odd });
  });

  it('fall back to stableJson for values the record types do not allow (undefined fields are left out)', () => {
    const loose = card({ rarity: undefined as unknown as null, imageUrl: 5 as unknown as string });
    expectSameCard({ card: loose, set, prices: walk('card', 'mtg-m21-162', '2026-11-20', 100), fx });
    expect(renderCardRangesJson({ card: loose, set, prices: null, fx })[0]).not.toContain('"rarity"');
    expectSameFigure({ figure: figure({ rarity: undefined as unknown as null }), series: figureSeries, prices: null, fx });
  });

  it('equal stableJson on 300 random cards and figures (names, gaps, starts, prices)', () => {
    const rand = prng(7);
    const pool = ['a', 'Z', ' ', '"', '\\', 'é', '\n', '\u2028', '🂡', '\ud83d', '-', '9'];
    const text = () => Array.from({ length: 1 + Math.floor(rand() * 12) }, () => pool[Math.floor(rand() * pool.length)]).join('');
    for (let i = 0; i < 300; i++) {
      const days = 1 + Math.floor(rand() * 1500);
      const usdCents = Array.from({ length: days }, () => (rand() < 0.2 ? null : Math.floor(rand() ** 3 * 10_000_000)));
      const start = dayString(dayNumber('2022-01-01') + Math.floor(rand() * 1500));
      const c = card({ name: text(), artist: rand() < 0.2 ? null : text(), rarity: rand() < 0.3 ? null : text(), releasedAt: rand() < 0.3 ? null : start });
      expectSameCard({ card: c, set: { ...set, name: text() }, prices: { entity: 'card', id: c.id, start, usdCents, synthetic: rand() < 0.1 }, fx });
      const f = figure({ name: text() });
      expectSameFigure({ figure: f, series: { ...figureSeries, name: text() }, prices: { entity: 'figure', id: f.id, start, usdCents }, fx });
    }
  });
});
