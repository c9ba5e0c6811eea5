/**
 * The whole real corpus (../shared/datasets) through the front door: every dataset imported into
 * one folder with the real CLI, compiled with the real CLI, then served through app.request(). The
 * expected numbers are counted from the raw files here, not taken from the importers. Skipped, with
 * a message, when the datasets are absent.
 */
import { readdirSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidId, slugify } from '../../snapshots/ids.js';
import { createFsSnapshotSource } from '../../snapshots/store/fs.js';
import { runCli, tempDir, type CliResult } from '../helpers/cli.js';
import { createTestApp, type TestApp } from '../helpers/server-app.js';
import { readNdjson } from './folder-helpers.js';
import {
  corpusImports, HAS_DATASETS, rawAmiibo, rawLorcana, rawMtgPrintings, rawOnePiece, rawPokemon, SKIP_MESSAGE, type MtgPrinting,
} from './real-corpus.js';

if (!HAS_DATASETS) console.warn(SKIP_MESSAGE);

const AS_OF = '2026-11-22';
const SERRA_ANGEL = '4b7ac066-e5c7-43e6-9e7e-2739b24a905d';

/** The `total` row of an import's table: read, imported, merged, rejected. */
function totals(run: CliResult): number[] {
  const m = /^total\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$/m.exec(run.stdout);
  if (m === null) throw new Error(`no total row in:\n${run.stdout}\n${run.stderr}`);
  return m.slice(1).map(Number);
}

describe.skipIf(!HAS_DATASETS)('the real corpus, imported, compiled and served', () => {
  const out = tempDir('real-src-');
  const snapshots = tempDir('real-snap-');
  const runs: CliResult[] = [];
  let mtg: { entries: number; sets: number; printings: MtgPrinting[] };
  let t: TestApp;
  const get = async (path: string) => {
    const res = await t.request(path, { headers: t.headers });
    return { status: res.status, body: (await res.json()) as { data: any; page: any } };
  };

  beforeAll(async () => {
    for (const args of corpusImports(out, AS_OF)) {
      const run = await runCli(args);
      if (run.code !== 0) throw new Error(`catalog ${args.join(' ')} failed: ${run.stderr}`);
      runs.push(run);
    }
    const compile = await runCli(['compile', '--source', out, '--out', snapshots]);
    if (compile.code !== 0) throw new Error(`compile failed: ${compile.stderr}`);
    mtg = rawMtgPrintings();
    t = await createTestApp({ snapshots: createFsSnapshotSource(snapshots) });
  }, 900_000);

  afterAll(() => {
    t?.close();
    rmSync(out, { recursive: true, force: true });
    rmSync(snapshots, { recursive: true, force: true });
  }, 600_000);

  it('when every dataset is imported then each import accounts for every record it read', () => {
    for (const run of runs) {
      const [read, imported, merged, rejected] = totals(run);
      expect(imported + merged + rejected).toBe(read);
    }
  });

  it('when MTGJSON is imported then every printing is a card, later faces merge and tokens are left out', () => {
    const [read, imported, merged, rejected] = totals(runs[0]);
    expect(read).toBe(mtg.entries + mtg.sets);
    expect(merged).toBe(mtg.entries - mtg.printings.length);
    expect(rejected).toBe(0);
    expect(imported).toBe(mtg.printings.length + mtg.sets);
  });

  it('when the other games are imported then the folder holds what the raw files hold, less the named rejects', () => {
    const cards = readNdjson<{ game: string }>(out, 'cards.ndjson');
    const count = (game: string) => cards.filter((c) => c.game === game).length;
    const pokemon = rawPokemon();
    const invalid = pokemon.cards.filter((c) => !isValidId(c.id));
    expect(count('mtg')).toBe(mtg.printings.length);
    expect(count('pokemon')).toBe(pokemon.cards.length - invalid.length);
    for (const c of invalid) expect(runs[1].stdout).toContain(`${c.id}: field "id" must be an id`);
    expect(count('lorcana')).toBe(rawLorcana().cards);
    const op = rawOnePiece();
    expect(count('onepiece')).toBe(op.uniqueIds);
    expect(totals(runs[3])[2]).toBe(op.printings - op.uniqueIds);
    const amiibo = rawAmiibo();
    expect(readNdjson(out, 'figures.ndjson')).toHaveLength(amiibo.figures);
    expect(readNdjson(out, 'figure-series.ndjson')).toHaveLength(amiibo.series);
    const sets = readNdjson<{ game: string }>(out, 'sets.ndjson');
    expect(sets.filter((s) => s.game === 'pokemon')).toHaveLength(pokemon.sets);
    expect(sets.filter((s) => s.game === 'onepiece')).toHaveLength(op.packs);
  });

  it('when the catalog summary is read then its card counts per game are the folder counts', async () => {
    const { body } = await get('/v1/catalog/summary');
    expect(body.data.cards.byGame.mtg).toBe(mtg.printings.length);
    expect(body.data.cards.oracleConcepts.byGame.mtg).toBe(new Set(mtg.printings.map((p) => p.oracleId).filter((o) => o !== null)).size);
    expect(body.data.figures.total).toBe(rawAmiibo().figures);
    const byGame = body.data.cards.byGame as Record<string, number>;
    expect(body.data.cards.total).toBe(Object.values(byGame).reduce((a, b) => a + b, 0));
  });

  it('when the Serra Angel oracle concept is read then it lists every printing across its sets, oldest first', async () => {
    const expected = mtg.printings.filter((p) => p.oracleId === SERRA_ANGEL);
    const { status, body } = await get(`/v1/oracle/${SERRA_ANGEL}`);
    expect(status).toBe(200);
    expect(body.data.name).toBe('Serra Angel');
    expect(body.data.printingsCount).toBe(expected.length);
    expect(body.data.printings.map((p: { id: string }) => p.id).sort()).toEqual(expected.map((p) => p.uuid).sort());
    expect(new Set(body.data.printings.map((p: { set: { code: string } }) => p.set.code)).size).toBeGreaterThan(10);
    expect(body.data.printings[0].set.code).toBe('lea');
  });

  it('when an artist page is read then it lists the artist\'s printings of every set, diacritics folded in the slug', async () => {
    for (const artist of ['Drew Tucker', 'Brian Snõddy']) {
      const expected = mtg.printings.filter((p) => p.artist !== null && slugify(p.artist) === slugify(artist));
      const { status, body } = await get(`/v1/artists/${slugify(artist)}?limit=100`);
      expect(status).toBe(200);
      expect(body.page.total).toBe(expected.length);
      expect(new Set(body.data.map((c: { set: { code: string } }) => c.set.code)).size).toBeGreaterThan(1);
    }
    expect(slugify('Brian Snõddy')).toBe('brian-snoddy');
  });

  it('when a well-known name is searched with its game prefix then that card\'s printings come first', async () => {
    const cases: [string, string][] = [
      ['mtg:serra angel', 'Serra Angel'],
      ['pokemon:charizard', 'Charizard'],
      ['lorcana:mickey mouse brave little tailor', 'Mickey Mouse - Brave Little Tailor'],
      ['onepiece:yamato', 'Yamato'],
      ['figures:mario', 'Mario'],
    ];
    for (const [q, name] of cases) {
      const { status, body } = await get(`/v1/search?q=${encodeURIComponent(q)}&limit=5`);
      expect(status, q).toBe(200);
      expect(body.data.length, q).toBeGreaterThan(0);
      expect(body.data[0].name, q).toBe(name);
      const game = q.slice(0, q.indexOf(':'));
      for (const item of body.data) expect(game === 'figures' ? item.kind : item.game, q).toBe(game === 'figures' ? 'figure' : game);
    }
    const serra = await get(`/v1/search?q=${encodeURIComponent('mtg:serra angel')}&limit=100`);
    const count = mtg.printings.filter((p) => p.name === 'Serra Angel').length;
    expect(serra.body.data.slice(0, count).every((c: { name: string; match: string }) => c.name === 'Serra Angel' && c.match === 'exact')).toBe(true);
  });

  it('when a name with diacritics is searched without them then it is found', async () => {
    const dandan = await get('/v1/search?q=mtg:dandan');
    expect(dandan.body.data.map((c: { name: string }) => c.name)).toEqual(
      mtg.printings.filter((p) => p.name === 'Dandân').map(() => 'Dandân'),
    );
    const jotun = await get('/v1/search?q=jotun');
    expect(jotun.body.data.map((c: { name: string }) => c.name)).toContain('Jötun Grunt');
  });

  it('when a card with an observed price is read then its price comes from the TCGplayer snapshots', async () => {
    const { body } = await get('/v1/cards/base1-4?range=3mo');
    expect(body.data.prices.priceDate).toBe('2025-02-27T00:00:00.000Z');
    expect(body.data.range.points.length).toBeGreaterThan(1);
  });

  it('when the source folder is listed then only canonical files are there (no temporary files left)', () => {
    expect(readdirSync(out).sort()).toEqual(['cards.ndjson', 'figure-series.ndjson', 'figures.ndjson', 'fx-rates.ndjson', 'meta.json', 'prices.ndjson', 'sets.ndjson']);
  });
});
