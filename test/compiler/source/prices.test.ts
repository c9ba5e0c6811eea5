import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CatalogError } from '../../../snapshots/errors.js';
import { formatReject, loadCatalog, openSource, streamPrices, type CatalogSource } from '../../../compiler/source/index.js';
import { baseCatalog, card, writeCatalog, type FixtureOverrides, removeTempDirs } from './catalog-fixture.js';

afterAll(removeTempDirs);

const opened: CatalogSource[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function readPrices(overrides: FixtureOverrides, maxRejects = 50) {
  const source = openSource(writeCatalog(overrides));
  opened.push(source);
  const catalog = await loadCatalog(source, { maxRejects });
  const lines = [];
  for await (const line of streamPrices(source, catalog)) lines.push(line);
  return { lines, rejects: catalog.rejects.finish().map(formatReject), catalog };
}

const base = baseCatalog();
const price = (extra: object): object => ({ entity: 'card', id: 'mtg-lea-1', start: '2026-11-01', usdCents: [10, 11], ...extra });

describe('streamPrices', () => {
  it('when prices are valid then each line is handed out once with its record and raw text', async () => {
    const { lines, rejects } = await readPrices({});
    expect(rejects).toEqual([]);
    expect(lines.map((l) => l.record)).toEqual(base.prices);
    expect(lines.map((l) => l.text)).toEqual(base.prices.map((p) => JSON.stringify(p)));
  });

  it('when the raw text has extra spacing then text is the line exactly as read', async () => {
    const raw = '{ "entity": "card", "id": "base1-4", "start": "2026-11-20", "usdCents": [ 42 ] }';
    const { lines } = await readPrices({ prices: [raw] });
    expect(lines.map(({ record, text }) => ({ record, text }))).toEqual([{ record: { entity: 'card', id: 'base1-4', start: '2026-11-20', usdCents: [42] }, text: raw }]);
  });

  it.each([
    ['a price for an unknown card', price({ id: 'ghost' }), 'prices.ndjson:3: refers to unknown card ghost'],
    ['a price for an unknown figure', price({ entity: 'figure', id: 'f404' }), 'prices.ndjson:3: refers to unknown figure f404'],
    ['a card id under entity figure', price({ entity: 'figure' }), 'prices.ndjson:3: refers to unknown figure mtg-lea-1'],
    ['a second series for one entity', price({ id: 'mtg-lea-161' }), 'prices.ndjson:3: duplicate price series for card mtg-lea-161 (first on line 1)'],
    ['negative cents', price({ usdCents: [10, -1] }), 'prices.ndjson:3: field "usdCents" must be an array of non-negative integer cents or null: usdCents[1] is -1'],
    ['fractional cents', price({ usdCents: [10.5] }), 'prices.ndjson:3: field "usdCents" must be an array of non-negative integer cents or null: usdCents[0] is 10.5'],
    ['cents that are not an array', price({ usdCents: 10 }), 'prices.ndjson:3: field "usdCents" must be an array of non-negative integer cents or null, got 10'],
    ['an invalid start', price({ start: '2026-11-31' }), 'prices.ndjson:3: field "start" must be a date YYYY-MM-DD, got "2026-11-31"'],
    ['a series past asOf', price({ start: '2026-11-20', usdCents: [1, 2] }), 'prices.ndjson:3: the series runs to 2026-11-21, after asOf 2026-11-20 in meta.json'],
    ['an unknown entity kind', price({ entity: 'sealed' }), 'prices.ndjson:3: field "entity" must be one of card, figure, got "sealed"'],
  ])('when a line has %s then it is rejected and skipped', async (_label, bad, expected) => {
    const { lines, rejects } = await readPrices({ prices: [...base.prices, bad] });
    expect(rejects).toEqual([expected]);
    expect(lines.map((l) => l.record)).toEqual(base.prices);
  });

  it('when a series past asOf is followed by another for the same card then that one is a duplicate, and only accepted series are reported as seen', async () => {
    const source = openSource(writeCatalog({ prices: [price({ id: 'base1-4', start: '2026-11-20', usdCents: [1, 2] }), price({ id: 'base1-4' }), price({})] }));
    opened.push(source);
    const catalog = await loadCatalog(source, { maxRejects: 50 });
    const seen = { card: new Map<string, number>(), figure: new Map<string, number>() };
    const lines = [];
    for await (const line of streamPrices(source, catalog, { seen })) lines.push(line.id);
    expect(catalog.rejects.finish().map(formatReject)).toEqual([
      'prices.ndjson:1: the series runs to 2026-11-21, after asOf 2026-11-20 in meta.json',
      'prices.ndjson:2: duplicate price series for card base1-4 (first on line 1)',
    ]);
    expect(lines).toEqual(['mtg-lea-1']);
    expect([...seen.card]).toEqual([['mtg-lea-1', 3]]);
  });

  it('when a series ends exactly on asOf then it is accepted', async () => {
    const { lines, rejects } = await readPrices({ prices: [price({ start: '2026-11-19', usdCents: [1, 2] })] });
    expect(rejects).toEqual([]);
    expect(lines).toHaveLength(1);
  });

  it('when the priced card was rejected then the price names where', async () => {
    const { rejects } = await readPrices({ cards: [...base.cards, card('neg', { watchers: -1 })], prices: [price({ id: 'neg' })] });
    expect(rejects).toEqual([
      'cards.ndjson:4: field "watchers" must be a non-negative integer, got -1',
      'prices.ndjson:1: refers to card neg, which was rejected (cards.ndjson:4)',
    ]);
  });

  it('when maxRejects is 0 then a bad price stops the stream with invalid_source', async () => {
    const source = openSource(writeCatalog({ prices: [...base.prices, price({ id: 'ghost' }), price({ id: 'base1-4' })] }));
    opened.push(source);
    const catalog = await loadCatalog(source, { maxRejects: 0 });
    const seen: string[] = [];
    let error: unknown;
    try {
      for await (const { record } of streamPrices(source, catalog)) seen.push(record.id);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(CatalogError);
    expect((error as CatalogError).code).toBe('invalid_source');
    expect((error as CatalogError).message).toContain('prices.ndjson:3: refers to unknown card ghost');
    expect(seen).toEqual(['mtg-lea-161', 'f1']);
  });

  it('when the caller takes lines whole then they are not handed out, the others are, and none is offered once a series ran late', async () => {
    const lines = [
      price({ id: 'mtg-lea-161' }),
      price({ id: 'base1-4' }),
      // Runs late (offered, refused, then rejected): no line after it is offered (a taken line is a checked one).
      price({ id: 'mtg-lea-1', start: '2026-11-20', usdCents: [1, 2] }),
      price({ entity: 'figure', id: 'f1' }),
    ];
    const source = openSource(writeCatalog({ prices: lines }));
    opened.push(source);
    const catalog = await loadCatalog(source, { maxRejects: 50 });
    const offered: number[] = [];
    // Takes line 1 only; refuses the others (which then go the usual way).
    const take = (key: string, size: number, lineNo: number) => {
      expect(key).toMatch(/^[A-Za-z0-9_-]{27}$/);
      expect(size).toBe(Buffer.byteLength(JSON.stringify(lines[lineNo - 1])));
      offered.push(lineNo);
      return lineNo === 1;
    };
    const out: number[] = [];
    for await (const line of streamPrices(source, catalog, { knownAccepted: true, take })) out.push(lines.findIndex((l) => JSON.stringify(l) === line.text) + 1);
    expect(offered).toEqual([1, 2, 3]);
    expect(out).toEqual([2, 4]);
    expect(catalog.rejects.finish().map(formatReject)).toEqual(['prices.ndjson:3: the series runs to 2026-11-21, after asOf 2026-11-20 in meta.json']);
    // Without knownAccepted nothing is offered.
    offered.length = 0;
    const again = await loadCatalog(source, { maxRejects: 50 });
    for await (const _ of streamPrices(source, again, { take })) void _;
    expect(offered).toEqual([]);
  });

  it('when the lines come split and hashed elsewhere then their keys are the ones offered and the stream is the same', async () => {
    const lines = [price({ id: 'mtg-lea-161' }), price({ id: 'base1-4' }), price({ entity: 'figure', id: 'f1' })];
    const dir = writeCatalog({ prices: lines });
    const source = openSource(dir);
    opened.push(source);
    const catalog = await loadCatalog(source, { maxRejects: 50 });
    const here: string[] = [];
    for await (const line of streamPrices(source, catalog)) here.push(`${line.id} ${line.key} ${line.text}`);
    // The folder source names the file another thread may read; the lines come with keys of their own.
    expect(source.linesFile?.('prices')).toBe(path.join(dir, 'prices.ndjson'));
    const given = (lineNo: number) => `given-key-of-line-${lineNo}`.padEnd(27, '_');
    async function* split() {
      for await (const batch of source.lineBytes('prices')) yield batch.map((l) => ({ ...l, key: given(l.lineNo) }));
    }
    const offered: string[] = [];
    const take = (key: string, _size: number, lineNo: number) => {
      offered.push(key);
      return lineNo === 2;
    };
    const again = await loadCatalog(source, { maxRejects: 50 });
    const elsewhere: string[] = [];
    for await (const line of streamPrices(source, again, { knownAccepted: true, take, lines: split() })) elsewhere.push(`${line.id} ${line.key} ${line.text}`);
    expect(offered).toEqual([given(1), given(2), given(3)]);
    expect(elsewhere).toEqual([here[0], here[2]].map((l, i) => l.replace(/ \S+ /, ` ${given(i === 0 ? 1 : 3)} `)));
  });

  it('when load rejects and price rejects together exceed maxRejects then finish throws', async () => {
    const dir = writeCatalog({ cards: [...base.cards, card('neg', { watchers: -1 })], prices: [...base.prices, price({ id: 'ghost' })] });
    fs.appendFileSync(path.join(dir, 'prices.ndjson'), '\n');
    const source = openSource(dir);
    opened.push(source);
    const catalog = await loadCatalog(source, { maxRejects: 1 });
    await expect((async () => {
      for await (const _ of streamPrices(source, catalog)) void _;
    })()).rejects.toThrow(/at least 2 rejected records/);
    expect(() => catalog.rejects.finish()).toThrow(CatalogError);
  });
});
