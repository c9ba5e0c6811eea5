/**
 * The re-use rules of the aggregate documents (compiler/compile/aggregates.ts, document-sink.ts;
 * docs/snapshots.md "Incremental compiles"), through compileSnapshot on a generated catalog: an
 * object that is re-used keeps the previous snapshot's pack and offset, one that is rendered again is
 * written into the new pack; either way the snapshot holds exactly the objects of a full compile of
 * the same catalog.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileSnapshot } from '../../../compiler/compile/index.js';
import { listPageKey, oracleKey, pullStatsKey, setPageKey } from '../../../snapshots/keys.js';
import { slugify } from '../../../snapshots/ids.js';
import Database from 'better-sqlite3';
import { runCli, tempDir } from '../../helpers/cli.js';
import { currentId, indexEntries, readDoc } from '../../helpers/snapshot-files.js';

let catalog: string;

beforeAll(async () => {
  catalog = join(tempDir(), 'catalog');
  // 1,200 cards: mtg/ald has 271 cards (three stored pages).
  expect((await runCli(['generate', '--out', catalog, '--cards', '1200', '--seed', '5'])).code).toBe(0);
}, 120_000);

const compile = (source: string, out: string) => compileSnapshot({ source, out, threads: 'inline', workers: 0 });

/** A copy of the catalog and a root with its first snapshot. */
async function compiledCopy(): Promise<{ cat: string; root: string; first: string }> {
  const cat = join(tempDir(), 'catalog');
  cpSync(catalog, cat, { recursive: true });
  const root = tempDir();
  await compile(cat, root);
  return { cat, root, first: currentId(root)! };
}

/** Rewrites the first line of `file` that `pick` accepts. */
function editLine(cat: string, file: string, pick: (rec: any) => boolean, edit: (rec: any) => unknown): void {
  const lines = readFileSync(join(cat, file), 'utf8').split('\n');
  const idx = lines.findIndex((l) => l.length > 0 && pick(JSON.parse(l)));
  expect(idx, `${file} has a line to edit`).toBeGreaterThanOrEqual(0);
  lines[idx] = JSON.stringify(edit(JSON.parse(lines[idx])));
  writeFileSync(join(cat, file), lines.join('\n'));
}

type Row = { sha256: string; at: string };
function rows(root: string, id: string): Map<string, Row> {
  return new Map(indexEntries(root, id)!.map((e) => [e.key, { sha256: e.sha256, at: `${e.pack}@${e.offset}` }]));
}

/** Compiles `cat` again into `root`; per key of interest: re-used (same place), rendered (new place) and whether its bytes changed. */
async function recompile(cat: string, root: string, first: string) {
  await compile(cat, root);
  const before = rows(root, first);
  const after = rows(root, currentId(root)!);
  const fresh = tempDir();
  await compile(cat, fresh);
  // The incremental snapshot holds exactly what a full compile of the same catalog holds.
  const objects = (m: Map<string, Row>) => [...m].map(([k, r]) => `${k} ${r.sha256}`);
  expect(objects(after)).toEqual(objects(rows(fresh, currentId(fresh)!)));
  return (key: string) => {
    const b = before.get(key)!;
    const a = after.get(key)!;
    return { reused: a.at === b.at, changed: a.sha256 !== b.sha256 };
  };
}

const SET = { game: 'mtg', code: 'ald' } as const;
const page = (n: number) => setPageKey(SET.game, SET.code, n);

describe('aggregate re-use', () => {
  it('when the price of a card on page 2 of its set changes then only page 2 is written again, pages 1 and 3 are re-used', async () => {
    const { cat, root, first } = await compiledCopy();
    const onPage2: { id: string }[] = readDoc(root, page(2)).data;
    expect(readDoc(root, page(3)).page.totalPages).toBe(3);
    // The last day's price only: the card's priceDate (and so the set's asOf) stays the same.
    const priced = new Set(readFileSync(join(cat, 'prices.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((p) => p.entity === 'card' && p.usdCents.at(-1) !== null).map((p) => p.id));
    const card = onPage2.find((c) => priced.has(c.id))!;
    editLine(cat, 'prices.ndjson', (p) => p.entity === 'card' && p.id === card.id, (p) => ({ ...p, usdCents: [...p.usdCents.slice(0, -1), p.usdCents.at(-1) + 11] }));

    const seen = await recompile(cat, root, first);
    expect(seen(page(2))).toEqual({ reused: false, changed: true });
    expect(seen(page(1))).toEqual({ reused: true, changed: false });
    expect(seen(page(3))).toEqual({ reused: true, changed: false });
  });

  it('when a card on page 3 of its set becomes the newest addition then every page is written again (their asOf changed)', async () => {
    const { cat, root, first } = await compiledCopy();
    const onPage3: { id: string }[] = readDoc(root, page(3)).data;
    const asOf: string = readDoc(root, page(1)).asOf;
    editLine(cat, 'cards.ndjson', (c) => c.id === onPage3[0].id, (c) => ({ ...c, addedAt: '2099-01-01' }));

    const seen = await recompile(cat, root, first);
    for (const n of [1, 2, 3]) expect(seen(page(n)), `page ${n}`).toEqual({ reused: false, changed: true });
    expect(readDoc(root, page(1)).asOf > asOf).toBe(true);
  });

  it('when a figure is renamed then its series\' pull-stats is rendered again and every other series\' is re-used, also when prices changed', async () => {
    const { cat, root, first } = await compiledCopy();
    const figures = readFileSync(join(cat, 'figures.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const renamed = figures[0];
    editLine(cat, 'figures.ndjson', (f) => f.id === renamed.id, (f) => ({ ...f, name: `${f.name} (variant)` }));
    // Prices of figures of other series change: pull-stats do not read prices.
    const others = new Set(figures.filter((f) => f.seriesId !== renamed.seriesId).map((f) => f.id));
    editLine(cat, 'prices.ndjson', (p) => p.entity === 'figure' && others.has(p.id) && p.usdCents.at(-1) !== null, (p) => ({ ...p, usdCents: [...p.usdCents.slice(0, -1), p.usdCents.at(-1) + 5] }));

    const seen = await recompile(cat, root, first);
    expect(seen(pullStatsKey(renamed.seriesId))).toEqual({ reused: false, changed: true });
    const series = [...new Set(figures.map((f) => f.seriesId))].filter((s) => s !== renamed.seriesId);
    expect(series.length).toBeGreaterThan(0);
    for (const s of series) expect(seen(pullStatsKey(s)), s).toEqual({ reused: true, changed: false });
  });

  it('when a pull report is added then every series\' pull-stats is rendered again (the priors and asOf pool every report)', async () => {
    const { cat, root, first } = await compiledCopy();
    const figure = JSON.parse(readFileSync(join(cat, 'figures.ndjson'), 'utf8').split('\n')[0]);
    const path = join(cat, 'pull-observations.ndjson');
    const report = { id: 'po-test-1', seriesId: figure.seriesId, userId: 'u-000001', observedAt: '2099-01-01', boxes: 3, pulls: { [figure.id]: 2 } };
    writeFileSync(path, `${readFileSync(path, 'utf8').trimEnd()}\n${JSON.stringify(report)}\n`);

    const seen = await recompile(cat, root, first);
    const series = [...new Set(readFileSync(join(cat, 'figures.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).seriesId))];
    for (const s of series) expect(seen(pullStatsKey(s)), s).toEqual({ reused: false, changed: true });
  });

  it('when only prices changed then the oracle concepts none of whose printings changed are kept in place, the others written again', async () => {
    const { cat, root, first } = await compiledCopy();
    const card = readFileSync(join(cat, 'prices.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((p) => p.entity === 'card' && p.usdCents.at(-1) !== null && oracleOf(cat, p.id) !== null)!;
    editLine(cat, 'prices.ndjson', (p) => p.entity === 'card' && p.id === card.id, (p) => ({ ...p, usdCents: [...p.usdCents.slice(0, -1), p.usdCents.at(-1) + 3] }));
    const other = oracleKeys(root, first).find((k) => k !== oracleKey(oracleOf(cat, card.id)!))!;

    const seen = await recompile(cat, root, first);
    expect(seen(oracleKey(oracleOf(cat, card.id)!))).toEqual({ reused: false, changed: true });
    expect(seen(other)).toEqual({ reused: true, changed: false });
  });

  it('when only prices changed then the changed card\'s artist pages are written again, another artist\'s and the users feed are kept in place', async () => {
    const { cat, root, first } = await compiledCopy();
    const card = readFileSync(join(cat, 'prices.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((p) => p.entity === 'card' && p.usdCents.at(-1) !== null && cardOf(cat, p.id).artist !== null)!;
    editLine(cat, 'prices.ndjson', (p) => p.entity === 'card' && p.id === card.id, (p) => ({ ...p, usdCents: [...p.usdCents.slice(0, -1), p.usdCents.at(-1) + 3] }));
    const artistPage = (slug: string) => listPageKey({ kind: 'artist', slug }, 1);
    const own = artistPage(slugify(cardOf(cat, card.id).artist));
    const other = indexEntries(root, first)!.map((e) => e.key).find((k) => k.startsWith('v1/artists/') && !k.startsWith(own.replace(/page-1\.json\.gz$/, '')))!;
    const users = listPageKey({ kind: 'discover', feed: 'users' }, 1);

    const seen = await recompile(cat, root, first);
    expect(seen(own)).toEqual({ reused: false, changed: true });
    expect(seen(other)).toEqual({ reused: true, changed: false });
    expect(seen(users)).toEqual({ reused: true, changed: false });
  });

  it('when the previous index lacks an unchanged oracle concept then it is rendered, not counted as kept', async () => {
    const { cat, root, first } = await compiledCopy();
    editLine(cat, 'prices.ndjson', (p) => p.entity === 'card' && p.usdCents.at(-1) !== null, (p) => ({ ...p, usdCents: [...p.usdCents.slice(0, -1), p.usdCents.at(-1) + 3] }));
    // A damaged previous index: one oracle row gone (its row count kept consistent).
    const gone = oracleKeys(root, first).at(-1)!;
    const db = new Database(join(root, first, 'objects.sqlite'));
    expect(db.prepare('DELETE FROM objects WHERE key = ?').run(gone).changes).toBe(1);
    db.prepare("UPDATE object_index_meta SET value = CAST(value AS INTEGER) - 1 WHERE key = 'object_rows'").run();
    db.close();

    await compile(cat, root);
    // recompile's check: the snapshot holds what a full compile holds, the missing concept included.
    const fresh = tempDir();
    await compile(cat, fresh);
    const objects = (r: string) => indexEntries(r, currentId(r)!)!.map((e) => `${e.key} ${e.sha256}`);
    expect(objects(root)).toEqual(objects(fresh));
    expect(objects(root).some((o) => o.startsWith(`${gone} `))).toBe(true);
  });

  it('when the previous index lacks a page of an unchanged set, artist, series or user then it is rendered, and the rest of each range is kept', async () => {
    const { cat, root, first } = await compiledCopy();
    editLine(cat, 'prices.ndjson', (p) => p.entity === 'card' && p.usdCents.at(-1) !== null, (p) => ({ ...p, usdCents: [...p.usdCents.slice(0, -1), p.usdCents.at(-1) + 3] }));
    // A damaged previous index: the last document of each list range gone (the row count kept consistent).
    const keys = indexEntries(root, first)!.map((e) => e.key);
    const gone = ['v1/sets/', 'v1/artists/', 'v1/figures/series/', 'v1/u/'].map((prefix) => keys.filter((k) => k.startsWith(prefix)).at(-1)!);
    expect(gone.every((k) => k !== undefined)).toBe(true);
    const db = new Database(join(root, first, 'objects.sqlite'));
    for (const key of gone) expect(db.prepare('DELETE FROM objects WHERE key = ?').run(key).changes).toBe(1);
    db.prepare(`UPDATE object_index_meta SET value = CAST(value AS INTEGER) - ${gone.length} WHERE key = 'object_rows'`).run();
    db.close();

    const lines: string[] = [];
    await compileSnapshot({ source: cat, out: root, threads: 'inline', workers: 0, progress: { phase: () => undefined, advance: () => undefined, note: (l) => lines.push(l) } });
    expect(lines.some((l) => /made from no changed card or figure kept as they were/.test(l))).toBe(true);
    const fresh = tempDir();
    await compile(cat, fresh);
    const objects = (r: string) => indexEntries(r, currentId(r)!)!.map((e) => `${e.key} ${e.sha256}`);
    expect(objects(root)).toEqual(objects(fresh));
    for (const key of gone) expect(objects(root).some((o) => o.startsWith(`${key} `))).toBe(true);
  });
});

/** The oracle id of a card of `cat`, or null. */
describe('aggregates compressed on the render threads', () => {
  it('when an incremental compile runs with a render thread then it compresses the rewritten aggregates and the snapshot equals a full compile', async () => {
    const { cat, root, first } = await compiledCopy();
    // One card price line in twenty: most sets, artists and oracle concepts have a page to write again.
    const path = join(cat, 'prices.ndjson');
    const lines = readFileSync(path, 'utf8').split('\n');
    let n = 0;
    const edited = lines.map((l) => {
      if (l.length === 0) return l;
      const p = JSON.parse(l);
      if (p.entity !== 'card' || p.usdCents.at(-1) === null || n++ % 20 !== 0) return l;
      return JSON.stringify({ ...p, usdCents: [...p.usdCents.slice(0, -1), p.usdCents.at(-1) + 7] });
    });
    writeFileSync(path, edited.join('\n'));
    const notes: string[] = [];
    const progress = { phase: () => undefined, advance: () => undefined, note: (line: string) => void notes.push(line) };
    await compileSnapshot({ source: cat, out: root, threads: 'worker', workers: 1, progress });
    const handed = notes.map((l) => /^aggregate documents: (\d+) compressed on the render threads$/.exec(l)).find(Boolean);
    expect(handed, notes.join('\n')).toBeTruthy();
    const before = rows(root, first);
    const after = rows(root, currentId(root)!);
    const rewritten = [...after].filter(([k, r]) => !k.startsWith('v1/cards/') && !k.startsWith('v1/figures/') && before.get(k)?.at !== r.at);
    expect(Number(handed![1])).toBe(rewritten.length);
    expect(rewritten.length).toBeGreaterThan(50);
    const fresh = tempDir();
    await compile(cat, fresh);
    const objects = (m: Map<string, Row>) => [...m].map(([k, r]) => `${k} ${r.sha256}`);
    expect(objects(after)).toEqual(objects(rows(fresh, currentId(fresh)!)));
  });
});

function cardOf(cat: string, id: string): { artist: string | null; oracleId: string | null } {
  const line = readFileSync(join(cat, 'cards.ndjson'), 'utf8').split('\n').find((l) => l.includes(`"id":"${id}"`));
  return JSON.parse(line!);
}

function oracleOf(cat: string, id: string): string | null {
  const line = readFileSync(join(cat, 'cards.ndjson'), 'utf8').split('\n').find((l) => l.includes(`"id":"${id}"`));
  return line ? (JSON.parse(line).oracleId as string | null) : null;
}

const oracleKeys = (root: string, id: string) => indexEntries(root, id)!.map((e) => e.key).filter((k) => k.startsWith('v1/oracle/'));

