/**
 * `catalog generate` through the front door: the library function on small catalogs (determinism,
 * record shapes, references, proportions) and the CLI entry with a fake CliIO.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCatalog, type GenerateSummary } from '../../compiler/generate/index.js';
import { main } from '../../cli/main.js';
import type { CliIO } from '../../cli/io.js';
import { ID_PATTERN, SLUG_PATTERN } from '../../snapshots/ids.js';
import {
  ACTIVITY_TYPES,
  CURRENCIES,
  FIGURE_RARITIES,
  GAMES,
  META_FILE,
  SOURCE_FILES,
  type ActivityEventRecord,
  type BinderRecord,
  type CardRecord,
  type FigureRecord,
  type FigureSeriesRecord,
  type FxRateRecord,
  type PriceSeriesRecord,
  type PullObservationRecord,
  type SetRecord,
  type SourceKind,
  type UserRecord,
} from '../../snapshots/records.js';

const AS_OF = '2026-11-20';
const CARDS = 2000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-generate-'));
afterAll(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));

function freshDir(name: string): string {
  return path.join(tmpRoot, name);
}

function sha256(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function fileHashes(dir: string): Record<string, string> {
  return Object.fromEntries(fs.readdirSync(dir).sort().map((f) => [f, sha256(path.join(dir, f))]));
}

function readNdjson<T>(dir: string, kind: SourceKind): T[] {
  const text = fs.readFileSync(path.join(dir, SOURCE_FILES[kind]), 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  expect(text.includes('\r')).toBe(false);
  return text.slice(0, -1).split('\n').map((line) => JSON.parse(line) as T);
}

/** Field name -> check, in the order of the record interface (the generator writes that order). */
type Shape = Record<string, (value: unknown) => boolean>;
const str = (v: unknown) => typeof v === 'string' && v.length > 0;
const strOrNull = (v: unknown) => v === null || str(v);
const int = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
const date = (v: unknown) => typeof v === 'string' && DATE.test(v) && !Number.isNaN(Date.parse(v)) && new Date(v).toISOString().startsWith(v);
const id = (v: unknown) => typeof v === 'string' && ID_PATTERN.test(v);
const slug = (v: unknown) => typeof v === 'string' && SLUG_PATTERN.test(v);
const bool = (v: unknown) => typeof v === 'boolean';
const oneOf = (values: readonly string[]) => (v: unknown) => typeof v === 'string' && values.includes(v);
const url = (v: unknown) => v === null || (typeof v === 'string' && /^https:\/\/\S+$/.test(v));

const SHAPES: Record<SourceKind, Shape> = {
  sets: { game: oneOf(GAMES), code: slug, name: str, releasedAt: date, series: strOrNull, printedTotal: (v) => v === null || int(v) },
  cards: {
    id, game: oneOf(GAMES), setCode: slug, name: str, number: str, rarity: str, artist: strOrNull,
    oracleId: (v) => v === null || id(v), imageUrl: url, releasedAt: date, addedAt: date, watchers: int,
  },
  figureSeries: { id, name: str, manufacturer: strOrNull, releasedAt: date },
  figures: { id, seriesId: id, name: str, rarity: oneOf(FIGURE_RARITIES), imageUrl: url, releasedAt: date, addedAt: date, watchers: int },
  fxRates: { date, currency: oneOf(CURRENCIES), perUsd: (v) => typeof v === 'number' && v > 0, source: str },
  users: { id, handle: (v) => v === null || slug(v), displayName: strOrNull, showcase: bool, anonymous: bool, joinedAt: date },
  binders: {
    id, userId: id, name: str, public: bool,
    items: (v) => Array.isArray(v) && v.every((i) => oneOf(['card', 'figure'])(i.entity) && id(i.id) && Object.keys(i).join() === 'entity,id'),
    updatedAt: date,
  },
  activity: {
    id, userId: (v) => v === null || id(v), type: oneOf(ACTIVITY_TYPES), entity: oneOf(['card', 'figure']), entityId: id,
    at: (v) => typeof v === 'string' && INSTANT.test(v) && new Date(v).toISOString() === v,
  },
  pullObservations: {
    id, seriesId: id, userId: (v) => v === null || id(v), observedAt: date, boxes: (v) => int(v) && (v as number) >= 1 && (v as number) <= 24,
    pulls: (v) => typeof v === 'object' && v !== null && Object.entries(v).every(([k, n]) => id(k) && int(n)),
  },
  prices: {
    entity: oneOf(['card', 'figure']), id, start: date,
    usdCents: (v) => Array.isArray(v) && v.length > 0 && v.every((c) => c === null || int(c)),
  },
};

interface Catalog {
  sets: SetRecord[];
  cards: CardRecord[];
  figureSeries: FigureSeriesRecord[];
  figures: FigureRecord[];
  fxRates: FxRateRecord[];
  users: UserRecord[];
  binders: BinderRecord[];
  activity: ActivityEventRecord[];
  pullObservations: PullObservationRecord[];
  prices: PriceSeriesRecord[];
}

function readCatalog(dir: string): Catalog {
  return Object.fromEntries((Object.keys(SOURCE_FILES) as SourceKind[]).map((k) => [k, readNdjson(dir, k)])) as unknown as Catalog;
}

function fakeIO(tty = false) {
  const out = { stdout: '', stderr: '' };
  const io: CliIO = {
    stdout: { write: (s: string) => (out.stdout += s), isTTY: tty },
    stderr: { write: (s: string) => (out.stderr += s), isTTY: tty },
    env: {},
  };
  return { io, out };
}

describe('generateCatalog', () => {
  let dir: string;
  let summary: GenerateSummary;
  let catalog: Catalog;
  const progress: [number, number][] = [];

  beforeAll(async () => {
    dir = freshDir('seed1');
    summary = await generateCatalog({ out: dir, cards: CARDS, seed: 1, asOf: AS_OF, onProgress: (d, t) => progress.push([d, t]) });
    catalog = readCatalog(dir);
  });

  it('writes exactly the source files plus meta.json', () => {
    expect(fs.readdirSync(dir).sort()).toEqual([...Object.values(SOURCE_FILES), META_FILE].sort());
    expect(fs.readFileSync(path.join(dir, META_FILE), 'utf8')).toBe(`{"formatVersion":1,"asOf":"${AS_OF}"}\n`);
  });

  it('gives byte-identical files for the same options, and different ones for another seed', async () => {
    const again = freshDir('seed1-again');
    await generateCatalog({ out: again, cards: CARDS, seed: 1, asOf: AS_OF });
    expect(fileHashes(again)).toEqual(fileHashes(dir));
    const other = freshDir('seed2');
    await generateCatalog({ out: other, cards: CARDS, seed: 2, asOf: AS_OF });
    const a = fileHashes(dir);
    const b = fileHashes(other);
    for (const file of Object.values(SOURCE_FILES)) expect(b[file], file).not.toBe(a[file]);
  });

  it('writes every record with the fields of its interface, in order, with valid types', () => {
    for (const kind of Object.keys(SOURCE_FILES) as SourceKind[]) {
      const shape = SHAPES[kind];
      const records = catalog[kind] as unknown as Record<string, unknown>[];
      expect(records.length, kind).toBeGreaterThan(0);
      for (const record of records) {
        expect(Object.keys(record), `${kind} ${JSON.stringify(record).slice(0, 120)}`).toEqual(Object.keys(shape));
        for (const [field, check] of Object.entries(shape)) {
          if (!check(record[field])) throw new Error(`${kind}.${field} is invalid in ${JSON.stringify(record).slice(0, 200)}`);
        }
      }
    }
  });

  it('reports counts that match the files, and progress up to the total', () => {
    expect(summary.cards).toBe(CARDS);
    expect(catalog.cards).toHaveLength(CARDS);
    expect(summary.sets).toBe(catalog.sets.length);
    expect(summary.figures).toBe(catalog.figures.length);
    expect(summary.priceSeries).toBe(catalog.prices.length);
    expect(summary.users).toBe(catalog.users.length);
    expect(summary.binders).toBe(catalog.binders.length);
    expect(summary.activity).toBe(catalog.activity.length);
    expect(summary.pullObservations).toBe(catalog.pullObservations.length);
    const total = CARDS + catalog.figures.length;
    expect(progress.at(-1)).toEqual([total, total]);
    expect(progress.every(([d], i) => i === 0 || d > progress[i - 1][0])).toBe(true);
  });

  it('keeps ids unique and every reference resolvable', () => {
    const unique = <T>(values: T[]) => expect(new Set(values).size).toBe(values.length);
    unique(catalog.sets.map((s) => `${s.game}/${s.code}`));
    unique(catalog.cards.map((c) => c.id));
    unique(catalog.figures.map((f) => f.id));
    unique(catalog.figureSeries.map((s) => s.id));
    unique(catalog.users.map((u) => u.id));
    unique(catalog.users.filter((u) => u.handle !== null).map((u) => u.handle));
    unique(catalog.binders.map((b) => b.id));
    unique(catalog.activity.map((a) => a.id));
    unique(catalog.pullObservations.map((p) => p.id));
    unique(catalog.prices.map((p) => `${p.entity}/${p.id}`));
    unique(catalog.fxRates.map((r) => `${r.date}/${r.currency}`));

    const sets = new Set(catalog.sets.map((s) => `${s.game}/${s.code}`));
    const cards = new Set(catalog.cards.map((c) => c.id));
    const figures = new Map(catalog.figures.map((f) => [f.id, f]));
    const series = new Set(catalog.figureSeries.map((s) => s.id));
    const users = new Set(catalog.users.map((u) => u.id));
    const exists = (entity: string, entityId: string) => (entity === 'card' ? cards.has(entityId) : figures.has(entityId));

    for (const c of catalog.cards) expect(sets.has(`${c.game}/${c.setCode}`), c.id).toBe(true);
    for (const f of catalog.figures) expect(series.has(f.seriesId), f.id).toBe(true);
    for (const p of catalog.prices) expect(exists(p.entity, p.id), p.id).toBe(true);
    for (const b of catalog.binders) {
      expect(users.has(b.userId), b.id).toBe(true);
      for (const item of b.items) expect(exists(item.entity, item.id), `${b.id} ${item.id}`).toBe(true);
    }
    for (const a of catalog.activity) {
      expect(exists(a.entity, a.entityId), a.id).toBe(true);
      if (a.userId !== null) expect(users.has(a.userId), a.id).toBe(true);
    }
    for (const o of catalog.pullObservations) {
      expect(series.has(o.seriesId), o.id).toBe(true);
      if (o.userId !== null) expect(users.has(o.userId), o.id).toBe(true);
      let sum = 0;
      for (const [figureId, n] of Object.entries(o.pulls)) {
        expect(figures.get(figureId)?.seriesId, `${o.id} ${figureId}`).toBe(o.seriesId);
        sum += n;
      }
      expect(sum).toBeLessThanOrEqual(o.boxes);
    }
  });

  it('keeps dates consistent with asOf: prices end on asOf, activity within the last 90 days', () => {
    const asOfMs = Date.parse(AS_OF);
    for (const p of catalog.prices) {
      const end = Date.parse(p.start) + (p.usdCents.length - 1) * 86_400_000;
      expect(end, p.id).toBe(asOfMs);
      // The 24-hour velocity needs the last two days.
      expect(p.usdCents.at(-1)).not.toBeNull();
      expect(p.usdCents.at(-2)).not.toBeNull();
    }
    for (const a of catalog.activity) {
      const t = Date.parse(a.at);
      expect(t).toBeLessThan(asOfMs);
      expect(t).toBeGreaterThanOrEqual(asOfMs - 90 * 86_400_000);
    }
    const days = new Set(catalog.fxRates.map((r) => r.date));
    expect(days.has(AS_OF)).toBe(true);
    expect(days.size * CURRENCIES.length).toBe(catalog.fxRates.length);
  });

  it('has all four games in realistic shares, with each game\'s numbering and set codes', () => {
    const byGame = (g: string) => catalog.cards.filter((c) => c.game === g).length / CARDS;
    expect(byGame('mtg')).toBeCloseTo(0.4, 2);
    expect(byGame('pokemon')).toBeCloseTo(0.3, 2);
    expect(byGame('lorcana')).toBeCloseTo(0.15, 2);
    expect(byGame('onepiece')).toBeCloseTo(0.15, 2);
    for (const c of catalog.cards) {
      if (c.game === 'onepiece') expect(c.number, c.id).toMatch(/^(OP|ST|EB)\d{2,}-\d{3}$/);
      else expect(c.number, c.id).toMatch(/^\d+$/);
    }
    // Release dates spread over years (MTG sets span decades).
    const mtgYears = new Set(catalog.sets.filter((s) => s.game === 'mtg').map((s) => s.releasedAt.slice(0, 4)));
    expect(mtgYears.size).toBeGreaterThanOrEqual(3);
    expect(new Set(catalog.cards.filter((c) => c.game === 'mtg').map((c) => c.rarity))).toEqual(new Set(['common', 'uncommon', 'rare', 'mythic']));
  });

  it('prints MTG oracle concepts in several sets, and no oracle id outside MTG', () => {
    const printings = new Map<string, Set<string>>();
    for (const c of catalog.cards) {
      if (c.game !== 'mtg') {
        expect(c.oracleId).toBeNull();
        continue;
      }
      expect(c.oracleId, c.id).not.toBeNull();
      const sets = printings.get(c.oracleId!) ?? new Set();
      sets.add(c.setCode);
      printings.set(c.oracleId!, sets);
    }
    const multi = [...printings.values()].filter((s) => s.size >= 2).length;
    expect(multi).toBeGreaterThanOrEqual(100);
    // Basic lands: reprinted in nearly every set.
    const forest = catalog.cards.filter((c) => c.name === 'Forest');
    expect(new Set(forest.map((c) => c.oracleId)).size).toBe(1);
    expect(new Set(forest.map((c) => c.setCode)).size).toBeGreaterThanOrEqual(3);
    // Same concept, same name across printings.
    const names = new Map<string, string>();
    for (const c of catalog.cards) if (c.oracleId) expect(names.get(c.oracleId) ?? (names.set(c.oracleId, c.name), c.name)).toBe(c.name);
  });

  it('credits a pool of artists, each across several sets and most across several games', () => {
    const sets = new Map<string, Set<string>>();
    const games = new Map<string, Set<string>>();
    for (const c of catalog.cards) {
      if (c.artist === null) continue;
      (sets.get(c.artist) ?? sets.set(c.artist, new Set()).get(c.artist)!).add(`${c.game}/${c.setCode}`);
      (games.get(c.artist) ?? games.set(c.artist, new Set()).get(c.artist)!).add(c.game);
    }
    expect(sets.size).toBeGreaterThanOrEqual(20);
    expect([...sets.values()].filter((s) => s.size >= 3).length / sets.size).toBeGreaterThan(0.8);
    expect([...games.values()].filter((g) => g.size >= 2).length / games.size).toBeGreaterThan(0.8);
    expect(catalog.cards.some((c) => /[^\x00-\x7f]/.test(c.name))).toBe(true);
  });

  it('prices about 95% of cards, mostly with 730+ days of history, some short, cheap and moving', () => {
    const priced = new Map(catalog.prices.map((p) => [`${p.entity}/${p.id}`, p]));
    const unpriced = catalog.cards.filter((c) => !priced.has(`card/${c.id}`)).length / CARDS;
    expect(unpriced).toBeGreaterThan(0.03);
    expect(unpriced).toBeLessThan(0.08);
    for (const f of catalog.figures) expect(priced.has(`figure/${f.id}`)).toBe(true);
    const long = catalog.prices.filter((p) => p.usdCents.length >= 730).length / catalog.prices.length;
    expect(long).toBeGreaterThan(0.6);
    expect(catalog.prices.some((p) => p.usdCents.length <= 60)).toBe(true);
    expect(catalog.prices.some((p) => (p.usdCents.at(-1) as number) < 50)).toBe(true);
    expect(catalog.prices.some((p) => p.usdCents.includes(null))).toBe(true);
    const movers = catalog.prices.filter((p) => {
      const [before, now] = p.usdCents.slice(-2) as number[];
      return before >= 100 && Math.abs(now - before) / before >= 0.15;
    });
    expect(movers.length).toBeGreaterThanOrEqual(5);
  });

  it('mixes showcase, anonymous and ordinary users, with handles only where allowed', () => {
    const { users } = catalog;
    expect(users.length).toBe(200);
    const showcase = users.filter((u) => u.showcase);
    const anonymous = users.filter((u) => u.anonymous);
    const ordinary = users.filter((u) => !u.showcase && !u.anonymous);
    expect(showcase.length / users.length).toBeCloseTo(0.35, 1);
    expect(anonymous.length / users.length).toBeCloseTo(0.1, 1);
    expect(ordinary.length).toBeGreaterThan(0);
    for (const u of showcase) expect(u.handle && u.displayName && !u.anonymous).toBeTruthy();
    for (const u of anonymous) expect([u.handle, u.displayName, u.showcase]).toEqual([null, null, false]);
    for (const u of ordinary) expect(u.handle).not.toBeNull();
    const publicBinders = catalog.binders.filter((b) => b.public).length;
    expect(publicBinders).toBeGreaterThan(0);
    expect(publicBinders).toBeLessThan(catalog.binders.length);
  });

  it('makes figure series of 6-15 figures with exactly one secret and mostly commons', () => {
    const bySeries = new Map<string, FigureRecord[]>();
    for (const f of catalog.figures) bySeries.set(f.seriesId, [...(bySeries.get(f.seriesId) ?? []), f]);
    expect(bySeries.size).toBeGreaterThanOrEqual(3);
    for (const figs of bySeries.values()) {
      expect(figs.length).toBeGreaterThanOrEqual(6);
      expect(figs.length).toBeLessThanOrEqual(15);
      expect(figs.filter((f) => f.rarity === 'secret')).toHaveLength(1);
      const common = figs.filter((f) => f.rarity === 'common').length;
      for (const r of ['uncommon', 'rare', 'ultra', 'secret']) expect(common).toBeGreaterThanOrEqual(figs.filter((f) => f.rarity === r).length);
    }
    expect(catalog.pullObservations.length).toBeGreaterThanOrEqual(bySeries.size * 8);
  });
});

describe('catalog generate (CLI)', () => {
  it('writes the folder and prints a one-line summary, nothing on stderr when not a terminal', async () => {
    const dir = freshDir('cli');
    const { io, out } = fakeIO();
    const code = await main(['node', 'catalog', 'generate', '--out', dir, '--cards', '301', '--seed', '-7', '--as-of', '2025-01-31'], io);
    expect(out.stderr).toBe('');
    expect(code).toBe(0);
    expect(out.stdout).toMatch(new RegExp(`^generated 301 cards in \\d+ sets, .* in \\d+\\.\\ds -> ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n$`));
    expect(fs.readFileSync(path.join(dir, META_FILE), 'utf8')).toContain('"asOf":"2025-01-31"');
  });

  it('shows a progress line on a terminal', async () => {
    const { io, out } = fakeIO(true);
    const code = await main(['node', 'catalog', 'generate', '--out', freshDir('cli-tty'), '--cards', '200'], io);
    expect(code).toBe(0);
    expect(out.stderr).toContain('\r');
    expect(out.stderr).toMatch(/\d/);
  });

  it('rejects --cards abc with a message naming the option and a non-zero exit', async () => {
    const { io, out } = fakeIO();
    const code = await main(['node', 'catalog', 'generate', '--out', freshDir('cli-bad'), '--cards', 'abc'], io);
    expect(code).toBe(64);
    expect(out.stderr).toContain('--cards');
    expect(out.stderr).toContain('abc');
    expect(fs.existsSync(freshDir('cli-bad'))).toBe(false);
  });

  it.each([
    [['--cards', '0'], '--cards'],
    [['--cards', '10000001'], '--cards'],
    [['--seed', '1.5'], '--seed'],
    [['--as-of', '2026-02-30'], '--as-of'],
    [['--as-of', 'yesterday'], '--as-of'],
  ])('rejects %j naming %s', async (args, option) => {
    const { io, out } = fakeIO();
    const code = await main(['node', 'catalog', 'generate', '--out', freshDir('cli-invalid'), ...args], io);
    expect(code).toBe(64);
    expect(out.stderr).toContain(option);
  });

  it('refuses a non-empty folder unless --force, and then overwrites the catalog', async () => {
    const dir = freshDir('cli-nonempty');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'keep me');
    const first = fakeIO();
    expect(await main(['node', 'catalog', 'generate', '--out', dir, '--cards', '100'], first.io)).toBe(64);
    expect(first.out.stderr).toContain('--force');
    expect(fs.readdirSync(dir)).toEqual(['notes.txt']);

    const forced = fakeIO();
    expect(await main(['node', 'catalog', 'generate', '--out', dir, '--cards', '100', '--force'], forced.io)).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'notes.txt'), 'utf8')).toBe('keep me');
    expect(fs.readFileSync(path.join(dir, SOURCE_FILES.cards), 'utf8').trim().split('\n')).toHaveLength(100);
  });
});
