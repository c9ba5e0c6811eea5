/**
 * The source folder an import writes into, and the merge rules that let several imports make one
 * catalog. Opening reads what the folder already holds (sets, cards, figure series, figures,
 * prices; every other file is left as it is); importers put records; `write` stores every kind
 * sorted by identity, each file through a temporary file and a rename, meta.json last. So the bytes
 * depend only on the records, not on the order of the imports, and importing the same data twice
 * leaves the folder unchanged.
 *
 * Merge rules: a record whose identity is already in the folder replaces the fields the source
 * gives, and keeps the catalog's own bookkeeping (`addedAt`, `watchers`); a new record gets
 * `addedAt` = the import's as-of day and 0 watchers. Price points join the entity's series (a
 * later import wins on the same day); an observed point replaces a synthetic series outright.
 * Every record is checked with the compiler's own field rules before it is accepted, so what is
 * written always passes `catalog compile`.
 *
 * @example
 *   const folder = await openCatalogFolder('data/real', { asOf: '2026-11-22' });
 *   folder.putSet({ game: 'mtg', code: 'lea', ... });      // { ok: true, status: 'imported' }
 *   folder.putCard({ id: 'b0fa…', game: 'mtg', setCode: 'lea', ... });
 *   folder.addPricePoint('card', 'base1-4', '2025-02-08', 45000);
 *   const totals = await folder.write({ syntheticSeed: null });
 */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CatalogError } from '../../snapshots/errors.js';
import {
  META_FILE,
  SOURCE_FILES,
  type CardRecord,
  type CatalogMeta,
  type EntityType,
  type FigureRecord,
  type FigureSeriesRecord,
  type PriceSeriesRecord,
  type SetRecord,
  type SourceKind,
} from '../../snapshots/records.js';
import { addDays, dayNumber } from '../../snapshots/dates.js';
import { parseMeta } from '../source/meta.js';
import { parseRecord } from '../source/validate.js';
import type { FolderTotals } from './report.js';
import { syntheticSeries } from './synthetic-prices.js';
import { makeDirs } from '../../snapshots/store/make-dirs.js';

/** A card as an importer gives it: everything but the catalog's own bookkeeping. */
export type CardInput = Omit<CardRecord, 'addedAt' | 'watchers'> & Record<string, unknown>;
export type FigureInput = Omit<FigureRecord, 'addedAt' | 'watchers'> & Record<string, unknown>;

export type PutResult = { ok: true; status: 'imported' | 'merged' } | { ok: false; reason: string };

export interface CatalogFolder {
  readonly dir: string;
  /** The import's as-of day: `addedAt` of new records, and the least `asOf` of the folder. */
  readonly asOf: string;
  putSet(set: SetRecord): PutResult;
  putCard(card: CardInput): PutResult;
  putSeries(series: FigureSeriesRecord): PutResult;
  putFigure(figure: FigureInput): PutResult;
  hasSet(game: string, code: string): boolean;
  card(id: string): CardRecord | undefined;
  cards(): IterableIterator<CardRecord>;
  hasFigure(id: string): boolean;
  /** One observed USD price of a card or figure already in the folder (the caller checks that). */
  addPricePoint(entity: EntityType, id: string, date: string, cents: number): PutResult;
  /** Writes every file; with a seed, first fills every unpriced card and figure with a synthetic series. */
  write(options: { syntheticSeed: number | null }): Promise<FolderTotals>;
}

interface Series {
  entity: EntityType;
  id: string;
  synthetic: boolean;
  /** Day → cents; null entries are kept as days without an observation. */
  days: Map<string, number | null>;
}

export async function openCatalogFolder(dir: string, options: { asOf: string }): Promise<CatalogFolder> {
  const existingMeta = await readMeta(dir);
  const sets = new Map<string, SetRecord>();
  for (const s of await readRecords<SetRecord>(dir, 'sets')) sets.set(setKey(s.game, s.code), s);
  const cards = new Map<string, CardRecord>();
  for (const c of await readRecords<CardRecord>(dir, 'cards')) cards.set(c.id, c);
  const series = new Map<string, FigureSeriesRecord>();
  for (const s of await readRecords<FigureSeriesRecord>(dir, 'figureSeries')) series.set(s.id, s);
  const figures = new Map<string, FigureRecord>();
  for (const f of await readRecords<FigureRecord>(dir, 'figures')) figures.set(f.id, f);
  const prices = new Map<string, Series | PriceSeriesRecord>();
  for (const p of await readRecords<PriceSeriesRecord>(dir, 'prices')) prices.set(priceKey(p.entity, p.id), p);

  const checked = <T>(kind: SourceKind, record: T): { ok: true; record: T } | { ok: false; reason: string } => {
    const parsed = parseRecord<T>(kind, JSON.stringify(record));
    return parsed.ok ? { ok: true, record: record } : { ok: false, reason: parsed.reason };
  };

  /** Keeps the catalog's bookkeeping of a record already there; a new one starts today with no watchers. */
  const withBookkeeping = <T extends object>(input: T, existing: { addedAt: string; watchers: number } | undefined) => ({
    ...input,
    addedAt: existing?.addedAt ?? options.asOf,
    watchers: existing?.watchers ?? 0,
  });

  const seriesOf = (key: string): Series | undefined => {
    const stored = prices.get(key);
    if (stored === undefined || 'days' in stored) return stored;
    // A series read from the folder becomes editable only when a point is added to it.
    const days = new Map<string, number | null>();
    stored.usdCents.forEach((cents, i) => days.set(addDays(stored.start, i), cents));
    const editable: Series = { entity: stored.entity, id: stored.id, synthetic: stored.synthetic === true, days };
    prices.set(key, editable);
    return editable;
  };

  return {
    dir,
    asOf: options.asOf,
    putSet(set) {
      const result = checked('sets', set);
      if (!result.ok) return result;
      const key = setKey(set.game, set.code);
      const status = sets.has(key) ? 'merged' : 'imported';
      sets.set(key, set);
      return { ok: true, status };
    },
    putCard(input) {
      if (!sets.has(setKey(input.game, input.setCode))) return { ok: false, reason: `unknown set ${input.game}/${input.setCode}` };
      const existing = cards.get(input.id);
      const result = checked('cards', withBookkeeping(input, existing));
      if (!result.ok) return result;
      cards.set(input.id, result.record as CardRecord);
      return { ok: true, status: existing === undefined ? 'imported' : 'merged' };
    },
    putSeries(input) {
      const result = checked('figureSeries', input);
      if (!result.ok) return result;
      const status = series.has(input.id) ? 'merged' : 'imported';
      series.set(input.id, input);
      return { ok: true, status };
    },
    putFigure(input) {
      if (!series.has(input.seriesId)) return { ok: false, reason: `unknown figure series ${input.seriesId}` };
      const existing = figures.get(input.id);
      const result = checked('figures', withBookkeeping(input, existing));
      if (!result.ok) return result;
      figures.set(input.id, result.record as FigureRecord);
      return { ok: true, status: existing === undefined ? 'imported' : 'merged' };
    },
    hasSet: (game, code) => sets.has(setKey(game, code)),
    card: (id) => cards.get(id),
    cards: () => cards.values(),
    hasFigure: (id) => figures.has(id),
    addPricePoint(entity, id, date, cents) {
      if (!Number.isSafeInteger(cents) || cents < 0) return { ok: false, reason: `price ${cents} is not a non-negative integer of cents` };
      const key = priceKey(entity, id);
      let current = seriesOf(key);
      if (current !== undefined && current.synthetic) {
        // Observed data always wins over a demo series: drop it whole rather than mix the two.
        prices.delete(key);
        current = undefined;
      }
      if (current === undefined) {
        prices.set(key, { entity, id, synthetic: false, days: new Map([[date, cents]]) });
        return { ok: true, status: 'imported' };
      }
      current.days.set(date, cents);
      return { ok: true, status: 'merged' };
    },
    async write({ syntheticSeed }) {
      const stored = [...prices.values()].map(toRecord);
      let asOf = existingMeta !== null && existingMeta.asOf > options.asOf ? existingMeta.asOf : options.asOf;
      for (const p of stored) {
        const end = addDays(p.start, p.usdCents.length - 1);
        if (end > asOf) asOf = end;
      }
      if (syntheticSeed !== null) {
        const unpriced = (entity: EntityType, id: string) => !prices.has(priceKey(entity, id));
        for (const c of cards.values()) if (unpriced('card', c.id)) stored.push(syntheticSeries(syntheticSeed, 'card', c.id, asOf));
        for (const f of figures.values()) if (unpriced('figure', f.id)) stored.push(syntheticSeries(syntheticSeed, 'figure', f.id, asOf));
      }
      const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      await makeDirs(dir);
      await writeAll(dir, [
        ['sets', [...sets.values()].sort((a, b) => byText(a.game, b.game) || byText(a.code, b.code))],
        ['cards', [...cards.values()].sort((a, b) => byText(a.game, b.game) || byText(a.setCode, b.setCode) || byText(a.id, b.id))],
        ['figureSeries', [...series.values()].sort((a, b) => byText(a.id, b.id))],
        ['figures', [...figures.values()].sort((a, b) => byText(a.seriesId, b.seriesId) || byText(a.id, b.id))],
        ['prices', stored.sort((a, b) => byText(a.entity, b.entity) || byText(a.id, b.id))],
      ]);
      const meta: CatalogMeta = { formatVersion: 1, asOf };
      await writeFile(join(dir, SOURCE_FILES.fxRates), '', { flag: 'a' });
      await writeAtomically(join(dir, META_FILE), `${JSON.stringify({ ...(existingMeta ?? {}), ...meta })}\n`);
      return {
        sets: sets.size,
        cards: cards.size,
        figureSeries: series.size,
        figures: figures.size,
        priceSeries: stored.length,
        syntheticPriceSeries: stored.filter((p) => p.synthetic === true).length,
        asOf,
      };
    },
  };
}

const setKey = (game: string, code: string) => `${game}/${code}`;
const priceKey = (entity: string, id: string) => `${entity}:${id}`;

/** An edited series back to its line: first to last day, null on days without a point. */
function toRecord(series: Series | PriceSeriesRecord): PriceSeriesRecord {
  if (!('days' in series)) return series;
  const days = [...series.days.keys()].sort();
  const start = days[0];
  const length = dayNumber(days[days.length - 1]) - dayNumber(start) + 1;
  const usdCents: (number | null)[] = new Array(length).fill(null);
  for (const [day, cents] of series.days) usdCents[dayNumber(day) - dayNumber(start)] = cents;
  const record: PriceSeriesRecord = { entity: series.entity, id: series.id, start, usdCents };
  if (series.synthetic) record.synthetic = true;
  return record;
}

async function readMeta(dir: string): Promise<CatalogMeta | null> {
  const path = join(dir, META_FILE);
  const text = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw new CatalogError('io', `cannot read ${path}: ${err.message}`, { path }, { cause: err });
  });
  return text === null ? null : parseMeta(text, path);
}

/**
 * The records of one kind already in the folder. A line the compiler would reject stops the import:
 * merging into a broken catalog would hide the problem behind the new records.
 */
async function readRecords<T>(dir: string, kind: SourceKind): Promise<T[]> {
  const path = join(dir, SOURCE_FILES[kind]);
  const text = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return '';
    throw new CatalogError('io', `cannot read ${path}: ${err.message}`, { path }, { cause: err });
  });
  const out: T[] = [];
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i].replace(/\r$/, '');
    if (line.trim() === '') continue;
    const parsed = parseRecord<T>(kind, line);
    if (!parsed.ok) {
      throw new CatalogError('invalid_source', `${path}:${i + 1}: ${parsed.reason} (fix the folder before importing into it)`, { path });
    }
    // The line as written, not the checked copy (which gains explicit nulls for omitted fields):
    // records nobody touches are written back byte for byte.
    out.push(JSON.parse(line) as T);
  }
  return out;
}

/** Every file to a temporary name first, then renamed: a failed write leaves the old files whole. */
async function writeAll(dir: string, files: [SourceKind, object[]][]): Promise<void> {
  const staged: [string, string][] = [];
  try {
    for (const [kind, records] of files) {
      const path = join(dir, SOURCE_FILES[kind]);
      const tmp = `${path}.import-tmp`;
      const chunks: string[] = [];
      for (const r of records) chunks.push(`${JSON.stringify(r)}\n`);
      await writeFile(tmp, chunks.join(''));
      staged.push([tmp, path]);
    }
  } catch (err) {
    await Promise.all(staged.map(([tmp]) => rm(tmp, { force: true })));
    throw new CatalogError('io', `cannot write into ${dir}: ${(err as Error).message}`, { dir }, { cause: err });
  }
  for (const [tmp, path] of staged) await rename(tmp, path);
}

async function writeAtomically(path: string, text: string): Promise<void> {
  await writeFile(`${path}.import-tmp`, text);
  await rename(`${path}.import-tmp`, path);
}
