/**
 * The importers on tiny hand-made files with the messy cases of real data, so the behaviour is
 * tested even where ../shared/datasets is absent. Every folder written is checked with the
 * compiler's own reader (no reject tolerated).
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCatalog } from '../../compiler/import/index.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { amiiboFile, mtgSetFile, pokemonRepo, punkRecords, writeJson } from './fixtures.js';
import { compileCheck, readNdjson } from './folder-helpers.js';

const AS_OF = '2026-11-22';
type Card = Record<string, unknown> & { id: string };

describe('mtgjson import', () => {
  it('when a set has a ★ number, a card without artist, a split card and a token then faces merge, tokens are skipped and nulls stay null', async () => {
    const src = tempDir('mtg-src-');
    const out = tempDir('mtg-out-');
    mtgSetFile(src);
    const report = await importCatalog({ format: 'mtgjson', path: src, out, asOf: AS_OF });
    expect(report.files).toEqual([{ file: 'TST.json', read: 5, imported: 4, merged: 1, rejected: 0 }]);
    const cards = readNdjson<Card>(out, 'cards.ndjson');
    expect(cards.map((c) => c.id).sort()).toEqual([
      '11111111-1111-5111-8111-111111111111', '22222222-2222-5222-8222-222222222222', '33333333-3333-5333-8333-333333333333',
    ]);
    const byId = new Map(cards.map((c) => [c.id, c]));
    expect(byId.get('11111111-1111-5111-8111-111111111111')).toMatchObject({
      number: '★12', setCode: 'tst', oracleId: '4b7ac066-e5c7-43e6-9e7e-2739b24a905d', releasedAt: '2020-01-10', addedAt: AS_OF, watchers: 0,
      imageUrl: 'https://cards.scryfall.io/normal/front/f/8/f8ac5006-91bd-4803-93da-f87cf196dd2f.jpg',
    });
    expect(byId.get('22222222-2222-5222-8222-222222222222')).toMatchObject({ name: 'Dandân', number: '123a', artist: null, oracleId: null });
    expect(byId.get('33333333-3333-5333-8333-333333333333')).toMatchObject({ name: 'Fire // Ice', number: '128' });
    expect(readNdjson(out, 'sets.ndjson')).toEqual([
      { game: 'mtg', code: 'tst', name: 'Test Set', releasedAt: '2020-01-10', series: 'Test Block', printedTotal: 2 },
    ]);
    expect((await compileCheck(out)).rejects).toBe(0);
  });

  it('when the same files are imported twice then every file is byte-identical and every record counts as merged', async () => {
    const src = tempDir('mtg-src-');
    const out = tempDir('mtg-out-');
    mtgSetFile(src);
    await importCatalog({ format: 'mtgjson', path: src, out, asOf: AS_OF });
    const before = Object.fromEntries(readdirSync(out).map((f) => [f, readFileSync(join(out, f), 'utf8')]));
    const again = await importCatalog({ format: 'mtgjson', path: src, out, asOf: AS_OF });
    expect(again.files[0]).toMatchObject({ imported: 0, merged: 5, rejected: 0 });
    expect(Object.fromEntries(readdirSync(out).map((f) => [f, readFileSync(join(out, f), 'utf8')]))).toEqual(before);
  });

  it('when a file is not MTGJSON then it is reported as rejected with the reason', async () => {
    const src = tempDir('mtg-src-');
    writeJson(join(src, 'BAD.json'), { meta: {}, cards: [] });
    const report = await importCatalog({ format: 'mtgjson', path: src, out: tempDir(), asOf: AS_OF });
    expect(report.rejected).toEqual([{ file: 'BAD.json', id: '(file)', reason: 'not an MTGJSON set file: no data.cards array' }]);
  });
});

describe('pokemon-tcg-data import', () => {
  it('when a card has no artist, a file uses the other scraper schema and a set date is "---" then artists and dates stay null and rarities are spaced', async () => {
    const out = tempDir('pk-out-');
    const report = await importCatalog({ format: 'pokemon-tcg-data', path: pokemonRepo(tempDir('pk-src-')), out, asOf: AS_OF });
    expect(report.rejected).toEqual([]);
    expect(report.notes).toEqual([{ file: join('sets', 'en.json'), id: 'mep', reason: 'release date "---" kept as null' }]);
    const cards = new Map(readNdjson<Card>(out, 'cards.ndjson').map((c) => [c.id, c]));
    expect(cards.get('base1-4')).toMatchObject({ artist: 'Mitsuhiro Arita', imageUrl: 'https://images.pokemontcg.io/base1/4_hires.png', releasedAt: '1999-01-09' });
    expect(cards.get('base1-5')).toMatchObject({ artist: null, imageUrl: 'https://images.pokemontcg.io/base1/5.png' });
    expect(cards.get('me2pt5-1')).toMatchObject({ rarity: 'Special Illustration Rare', artist: null, releasedAt: '2026-01-30' });
    expect(cards.get('mep-1')).toMatchObject({ rarity: null, releasedAt: null });
    const sets = readNdjson<Record<string, unknown>>(out, 'sets.ndjson');
    expect(sets.find((s) => s.code === 'mep')).toMatchObject({ releasedAt: null, printedTotal: null });
    expect((await compileCheck(out)).rejects).toBe(0);
  });
});

describe('punk-records import', () => {
  it('when an id repeats in a second pack and a date is a placeholder then the first pack keeps it, parallels share the oracle id and the date is null', async () => {
    const { english, sets } = punkRecords(tempDir('op-src-'));
    const out = tempDir('op-out-');
    const report = await importCatalog({ format: 'punk-records', path: english, out, asOf: AS_OF, setsFile: sets });
    expect(report.files.find((f) => f.file === join('data', '569901.json'))).toEqual({ file: join('data', '569901.json'), read: 1, imported: 0, merged: 1, rejected: 0 });
    expect(report.notes).toContainEqual({ file: join('data', '569901.json'), id: 'OP07-091_p1', reason: 'also listed in pack 569801: kept there' });
    const cards = new Map(readNdjson<Card>(out, 'cards.ndjson').map((c) => [c.id, c]));
    expect(cards.size).toBe(3);
    expect(cards.get('OP07-091_p1')).toMatchObject({ setCode: 'other-product-card', number: 'OP07-091', oracleId: 'OP07-091' });
    expect(cards.get('OP01-121_p1')).toMatchObject({ setCode: 'op-01', number: 'OP01-121', oracleId: 'OP01-121', artist: null, releasedAt: '2022-12-02' });
    const setDates = Object.fromEntries(readNdjson<{ code: string; releasedAt: string | null }>(out, 'sets.ndjson').map((s) => [s.code, s.releasedAt]));
    expect(setDates).toEqual({ 'op-01': '2022-12-02', 'other-product-card': null, 'promotion-card': null });
    expect((await compileCheck(out)).rejects).toBe(0);
  });
});

describe('amiibo import', () => {
  it('when amiibo are imported then the series comes from the id, rarity is null and the release is NA else the earliest', async () => {
    const out = tempDir('am-out-');
    const report = await importCatalog({ format: 'amiibo', path: amiiboFile(tempDir('am-src-')), out, asOf: AS_OF });
    expect(report.files).toEqual([{ file: 'amiibo.json', read: 4, imported: 4, merged: 0, rejected: 0 }]);
    const figures = new Map(readNdjson<Card>(out, 'figures.ndjson').map((f) => [f.id, f]));
    expect(figures.get('0x0000000000000002')).toMatchObject({
      seriesId: 'amiibo-0x00', rarity: null, releasedAt: '2014-11-21', character: 'Mario', gameSeries: 'Super Mario', amiiboType: 'Figure',
      imageUrl: 'https://raw.githubusercontent.com/N3evin/AmiiboAPI/master/images/icon_00000000-00000002.png',
    });
    expect(figures.get('0x1f400000035e1002')).toMatchObject({ seriesId: 'amiibo-0x10', releasedAt: '2017-02-02', amiiboType: 'Figure' });
    expect(readNdjson(out, 'figure-series.ndjson')).toEqual([
      { id: 'amiibo-0x00', name: 'Super Smash Bros.', manufacturer: 'Nintendo', releasedAt: '2014-11-21' },
      { id: 'amiibo-0x10', name: 'BoxBoy!', manufacturer: 'Nintendo', releasedAt: '2017-02-02' },
    ]);
    expect((await compileCheck(out)).rejects).toBe(0);
  });
});

describe('price imports', () => {
  const csv = [
    'snapshot_commit,snapshot_date,set_name,set_code_field,card_id,name,number,printed_total,tcgplayer_market_usd,tcgplayer_high_usd,card_link',
    'c1,2025-02-08T10:00:00-05:00,Base,base1,base1-4,Charizard,4,102,400.00,500,x',
    'c2,2025-02-10T10:00:00-05:00,Base,base1,base1-4,Charizard,4,102,410.50,500,x',
    'c3,2025-02-10T20:00:00-05:00,Base,base1,base1-4,Charizard,4,102,"415.25",500,x',
    'c3,2025-02-10T20:00:00-05:00,Terastal Festival,sv8a,,"Pikachu ex, promo",236,187,50.46,84,x',
    'c3,2025-02-10T20:00:00-05:00,Base,base1,base1-999,Nothing,999,102,1.00,1,x',
  ].join('\n');

  it('when snapshot rows are imported then one series per card holds them, the later snapshot wins a day, and unknown rows are rejected', async () => {
    const out = tempDir('pp-out-');
    await importCatalog({ format: 'pokemon-tcg-data', path: pokemonRepo(tempDir('pk-src-')), out, asOf: AS_OF });
    const file = join(tempDir('pp-src-'), 'snap.csv');
    writeFileSync(file, csv);
    const report = await importCatalog({ format: 'pokemon-prices-csv', path: file, out, asOf: AS_OF });
    expect(report.files).toEqual([{ file: 'snap.csv', read: 5, imported: 1, merged: 2, rejected: 2 }]);
    expect(report.rejected.map((r) => r.id)).toEqual(['line 5', 'base1-999']);
    expect(report.rejected[0].reason).toBe('no card_id (Pikachu ex, promo 236, set sv8a)');
    expect(readNdjson(out, 'prices.ndjson')).toEqual([{ entity: 'card', id: 'base1-4', start: '2025-02-08', usdCents: [40000, null, 41525] }]);
  });

  it('when synthetic prices are asked for then unpriced cards get a marked year of prices and an observed price later replaces it', async () => {
    const out = tempDir('syn-out-');
    await importCatalog({ format: 'pokemon-tcg-data', path: pokemonRepo(tempDir('pk-src-')), out, asOf: AS_OF, syntheticSeed: 7 });
    const series = readNdjson<{ id: string; start: string; usdCents: unknown[]; synthetic?: boolean }>(out, 'prices.ndjson');
    expect(series.map((s) => s.id)).toEqual(['base1-4', 'base1-5', 'me2pt5-1', 'mep-1']);
    for (const s of series) expect(s).toMatchObject({ synthetic: true, start: '2025-11-23' });
    expect(series[0].usdCents).toHaveLength(365);
    const file = join(tempDir('pp-src-'), 'snap.csv');
    writeFileSync(file, csv);
    await importCatalog({ format: 'pokemon-prices-csv', path: file, out, asOf: AS_OF });
    const after = readNdjson<{ id: string; synthetic?: boolean }>(out, 'prices.ndjson');
    expect(after.find((s) => s.id === 'base1-4')).toEqual({ entity: 'card', id: 'base1-4', start: '2025-02-08', usdCents: [40000, null, 41525] });
    expect(after.find((s) => s.id === 'base1-5')?.synthetic).toBe(true);
    const check = await compileCheck(out);
    expect(check).toMatchObject({ rejects: 0, prices: 4 });
  });
});

describe('catalog import (CLI)', () => {
  it('when records are rejected then the counts and every rejected record are printed and the exit code is 0', async () => {
    const src = tempDir('cli-src-');
    writeJson(join(src, 'TST.json'), { data: { code: 'TST', name: 'T', releaseDate: '2020-01-01', cards: [{ uuid: 'bad id!', name: 'X', number: '1', rarity: 'common', identifiers: {} }] } });
    const out = tempDir('cli-out-');
    const run = await runCli(['import', 'mtgjson', src, '--out', out, '--as-of', AS_OF]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/TST\.json\s+2\s+1\s+0\s+1/);
    expect(run.stdout).toContain('TST.json: bad id!: field "id" must be an id');
    expect(existsSync(join(out, 'meta.json'))).toBe(true);
  });

  it('when --strict and a record is rejected then nothing is written and the exit code is 65', async () => {
    const src = tempDir('cli-src-');
    writeJson(join(src, 'TST.json'), { data: { code: 'TST', name: 'T', releaseDate: '2020-01-01', cards: [{ uuid: 'bad id!', name: 'X', number: '1', identifiers: {} }] } });
    const out = tempDir('cli-out-');
    const run = await runCli(['import', 'mtgjson', src, '--out', out, '--strict']);
    expect(run.code).toBe(65);
    expect(run.stderr).toContain('1 record(s) rejected with --strict: nothing written');
    expect(readdirSync(out)).toEqual([]);
  });

  it('when the format is unknown then it is a usage error naming the formats', async () => {
    const run = await runCli(['import', 'yugioh', tempDir(), '--out', tempDir()]);
    expect(run.code).toBe(64);
    expect(run.stderr).toContain('unknown format "yugioh": one of mtgjson, pokemon-tcg-data');
  });

  it('when lorcast is imported without --price-date then it is a usage error', async () => {
    const run = await runCli(['import', 'lorcast', tempDir(), '--out', tempDir()]);
    expect(run.code).toBe(64);
    expect(run.stderr).toContain('lorcast needs --price-date');
  });
});
