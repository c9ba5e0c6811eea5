import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CatalogError } from '../../../snapshots/errors.js';
import { loadCatalog, openSource, streamPrices, type CatalogSource } from '../../../compiler/source/index.js';
import { baseCatalog, card, writeCatalog, removeTempDirs } from './catalog-fixture.js';

afterAll(removeTempDirs);

const opened: CatalogSource[] = [];
const open = (dir: string): CatalogSource => {
  const source = openSource(dir);
  opened.push(source);
  return source;
};
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function caught(promise: Promise<unknown>): Promise<CatalogError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(CatalogError);
    return err as CatalogError;
  }
  throw new Error('expected a CatalogError');
}

describe('loadCatalog from a folder', () => {
  it('when the catalog is valid then every record is loaded as parsed, with no rejects', async () => {
    const dir = writeCatalog();
    const progress: string[] = [];
    const catalog = await loadCatalog(open(dir), { maxRejects: 0, onProgress: (kind, n) => progress.push(`${kind}:${n}`) });
    const base = baseCatalog();

    expect(catalog.meta).toEqual({ formatVersion: 1, asOf: '2026-11-20' });
    expect(catalog.sets).toEqual(base.sets);
    expect(catalog.setsByKey.get('pokemon/base1')?.name).toBe('Base Set');
    expect([...catalog.cards.keys()]).toEqual(['mtg-lea-161', 'mtg-lea-1', 'base1-4']);
    expect(catalog.cards.get('mtg-lea-161')).toEqual(base.cards[0]);
    expect(catalog.figureSeries.get('s1')?.manufacturer).toBe('Pop Mart');
    expect([...catalog.figures.keys()]).toEqual(['f1', 'f2']);
    expect(catalog.fxRates.map((r) => `${r.date} ${r.currency}`)).toEqual(['2026-11-19 EUR', '2026-11-19 GBP', '2026-11-20 GBP']);
    expect(catalog.users.get('u2')?.anonymous).toBe(true);
    expect([...catalog.publishedBinders]).toEqual(base.binders);
    expect([...catalog.activity].map((a) => a.id)).toEqual(['a1', 'a2']);
    expect([...catalog.pullObservations]).toEqual(base.pullObservations);
    expect(catalog.rejects.count).toBe(0);
    expect(catalog.rejects.finish()).toEqual([]);
    expect(progress).toEqual([
      'sets:2',
      'cards:3',
      'figureSeries:1',
      'figures:2',
      'fxRates:3',
      'users:2',
      'binders:1',
      'activity:2',
      'pullObservations:1',
    ]);
  });

  it('when lines end with CRLF, contain blank lines and a byte-order mark then line numbers still match the file', async () => {
    const dir = writeCatalog();
    const cards = baseCatalog().cards.map((c) => JSON.stringify(c));
    const broken = JSON.stringify(card('bad', { watchers: -1 }));
    fs.writeFileSync(path.join(dir, 'cards.ndjson'), `\uFEFF${cards[0]}\r\n\r\n   \r\n${cards[1]}\r\n${broken}\r\n${cards[2]}`);
    const catalog = await loadCatalog(open(dir), { maxRejects: 1 });
    expect([...catalog.cards.keys()]).toEqual(['mtg-lea-161', 'mtg-lea-1', 'base1-4']);
    expect(catalog.rejects.list()).toEqual([
      { file: 'cards.ndjson', lineNo: 5, reason: 'field "watchers" must be a non-negative integer, got -1' },
    ]);
  });

  it('when optional files are missing or empty then they load as zero records', async () => {
    const dir = writeCatalog({ users: null, binders: [], activity: null, pullObservations: [], figureSeries: null, figures: [] });
    const catalog = await loadCatalog(open(dir), { maxRejects: 0 });
    expect(catalog.users.size).toBe(0);
    expect([...catalog.publishedBinders]).toEqual([]);
    expect([...catalog.activity]).toEqual([]);
    expect([...catalog.pullObservations]).toEqual([]);
    expect(catalog.figureSeries.size).toBe(0);
    expect(catalog.figures.size).toBe(0);
    expect(catalog.cards.size).toBe(3);
  });

  it.each(['sets', 'cards', 'fxRates'] as const)('when the required %s file is missing then invalid_source names it', async (kind) => {
    const dir = writeCatalog({ [kind]: null });
    const err = await caught(loadCatalog(open(dir), { maxRejects: 0 }));
    expect(err.code).toBe('invalid_source');
    expect(err.message).toContain(path.join(dir, { sets: 'sets.ndjson', cards: 'cards.ndjson', fxRates: 'fx-rates.ndjson' }[kind]));
    expect(err.message).toContain('missing');
  });

  it('when prices.ndjson is missing then streaming prices fails with invalid_source', async () => {
    const dir = writeCatalog({ prices: null });
    const source = open(dir);
    const catalog = await loadCatalog(source, { maxRejects: 0 });
    const err = await caught((async () => {
      for await (const _ of streamPrices(source, catalog)) void _;
    })());
    expect(err.code).toBe('invalid_source');
    expect(err.message).toContain('prices.ndjson is missing');
  });

  it.each([
    ['missing', null, 'meta.json is missing'],
    ['not JSON', '{formatVersion: 1}', 'not valid JSON'],
    ['another format version', { formatVersion: 2, asOf: '2026-11-20' }, 'formatVersion must be 1'],
    ['an impossible asOf', { formatVersion: 1, asOf: '2026-02-30' }, 'asOf must be a date YYYY-MM-DD'],
  ])('when meta.json is %s then the load fails with invalid_source', async (_label, meta, message) => {
    const dir = writeCatalog({ meta });
    const err = await caught(loadCatalog(open(dir), { maxRejects: 100 }));
    expect(err.code).toBe('invalid_source');
    expect(err.message).toContain(message);
  });

  it('when a card is broken and maxRejects is 0 then the load fails fast naming cards.ndjson:3 and --max-rejects', async () => {
    const cards = baseCatalog().cards;
    const dir = writeCatalog({ cards: [cards[0], cards[1], card('x', { game: 'yugioh' }), cards[2]] });
    const err = await caught(loadCatalog(open(dir), { maxRejects: 0 }));
    expect(err.code).toBe('invalid_source');
    expect(err.exitCode).toBe(65);
    expect(err.message).toContain('cards.ndjson:3: field "game" must be one of mtg, pokemon, lorcana, onepiece, got "yugioh"');
    expect(err.message).toContain('--max-rejects N');
  });

  it('when there are more rejects than allowed then the message lists the first 20 and counts the rest', async () => {
    const broken = Array.from({ length: 30 }, (_, i) => card(`bad-${i}`, { watchers: 'many' }));
    const dir = writeCatalog({ cards: [...broken, ...baseCatalog().cards] });
    const err = await caught(loadCatalog(open(dir), { maxRejects: 25 }));
    expect(err.message).toContain('at least 26 rejected records, more than --max-rejects allows (25)');
    expect(err.message).toContain('cards.ndjson:20:');
    expect(err.message).not.toContain('cards.ndjson:21:');
    expect(err.message).toContain('... and 6 more');
  });

  it('when maxRejects allows them then bad records are skipped, listed, and records referring to them are rejected too', async () => {
    const base = baseCatalog();
    const dir = writeCatalog({
      sets: [...base.sets, { game: 'mtg', code: 'LEB', name: 'Beta', releasedAt: '1993-10-01', series: null, printedTotal: null }],
      cards: [...base.cards, card('beta-1', { setCode: 'LEB' }), card('orphan', { setCode: 'nope' }), card('bad', { name: '' })],
      binders: [{ ...base.binders[0], items: [{ entity: 'card', id: 'bad' }] }],
      activity: [...base.activity, { ...base.activity[0], id: 'a3', entity: 'card', entityId: 'bad' }],
    });
    const catalog = await loadCatalog(open(dir), { maxRejects: 10 });
    expect([...catalog.cards.keys()]).toEqual(['mtg-lea-161', 'mtg-lea-1', 'base1-4']);
    expect([...catalog.publishedBinders]).toEqual([]);
    expect([...catalog.activity].map((a) => a.id)).toEqual(['a1', 'a2']);
    expect(catalog.rejects.finish()).toEqual([
      { file: 'sets.ndjson', lineNo: 3, reason: expect.stringContaining('field "code" must be a lowercase slug') },
      { file: 'cards.ndjson', lineNo: 4, reason: expect.stringContaining('field "setCode" must be a lowercase slug') },
      { file: 'cards.ndjson', lineNo: 5, reason: 'refers to unknown set mtg/nope' },
      { file: 'cards.ndjson', lineNo: 6, reason: 'field "name" must be a non-empty string, got ""' },
      { file: 'binders.ndjson', lineNo: 1, reason: 'items[0] refers to card bad, which was rejected (cards.ndjson:6)' },
      { file: 'activity.ndjson', lineNo: 3, reason: 'refers to card bad, which was rejected (cards.ndjson:6)' },
    ]);
  });

  it('when a binder is not published then it is checked like any other but not kept', async () => {
    const base = baseCatalog();
    const b1 = base.binders[0];
    const dir = writeCatalog({
      binders: [
        b1,
        { ...b1, id: 'b2', public: false },
        // u2 is anonymous: a public binder of theirs is not published either.
        { ...b1, id: 'b3', userId: 'u2' },
        { ...b1, id: 'b4', public: false, items: [{ entity: 'card', id: 'nope' }] },
        { ...b1, id: 'b1', name: 'Again' },
      ],
    });
    const catalog = await loadCatalog(open(dir), { maxRejects: 10 });
    expect([...catalog.publishedBinders]).toEqual([b1]);
    expect(catalog.rejects.list().map((r) => `${r.file}:${r.lineNo}: ${r.reason}`)).toEqual([
      'binders.ndjson:4: items[0] refers to unknown card nope',
      expect.stringMatching(/^binders\.ndjson:5: .*b1/),
    ]);
  });

  it('when a set is rejected then its cards are rejected naming the set line', async () => {
    const base = baseCatalog();
    const dir = writeCatalog({ sets: [{ ...base.sets[0], releasedAt: '1993-13-01' }, base.sets[1]] });
    const catalog = await loadCatalog(open(dir), { maxRejects: 10 });
    expect(catalog.rejects.list().map((r) => `${r.file}:${r.lineNo}: ${r.reason}`)).toEqual([
      'sets.ndjson:1: field "releasedAt" must be a date YYYY-MM-DD or null, got "1993-13-01"',
      'cards.ndjson:1: refers to set mtg/lea, which was rejected (sets.ndjson:1)',
      'cards.ndjson:2: refers to set mtg/lea, which was rejected (sets.ndjson:1)',
      'binders.ndjson:1: items[0] refers to card mtg-lea-161, which was rejected (cards.ndjson:1)',
    ]);
  });

  it('when a nullable field is omitted then it is read as null', async () => {
    const { artist: _artist, oracleId: _oracle, imageUrl: _image, ...bare } = card('bare') as Record<string, unknown>;
    const dir = writeCatalog({ cards: [...baseCatalog().cards, bare] });
    const catalog = await loadCatalog(open(dir), { maxRejects: 0 });
    const loaded = catalog.cards.get('bare')!;
    expect(loaded.artist).toBeNull();
    expect(loaded.oracleId).toBeNull();
    expect(loaded.imageUrl).toBeNull();
  });

  it('when records carry unknown extra fields then they are kept, not rejected', async () => {
    const dir = writeCatalog({ cards: [...baseCatalog().cards, card('extra', { flavorText: 'Zap', tcgplayerId: 12 })] });
    const catalog = await loadCatalog(open(dir), { maxRejects: 0 });
    expect(catalog.cards.get('extra')).toMatchObject({ flavorText: 'Zap', tcgplayerId: 12 });
  });
});
