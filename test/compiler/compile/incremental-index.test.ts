/**
 * The object index an incremental compile builds from a copy of the previous one
 * (compiler/compile/object-table.ts) holds exactly the rows a full compile of the same catalog
 * writes (key, SHA-256, length, input), lists exactly the packs its rows use, and its change list
 * and counts are what differs between the two snapshots' indexes; a compile that fails part-way
 * leaves `current` and the previous index as they were; a per-URL root (before packs) still moves
 * to packs.
 */
import Database from 'better-sqlite3';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileSnapshot, type CompileOptions } from '../../../compiler/compile/index.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { currentId, manifestHeader } from '../../helpers/snapshot-files.js';
import { unpackRoot } from '../../helpers/unpacked-fixture.js';

let catalog: string;

beforeAll(async () => {
  catalog = join(tempDir(), 'catalog');
  expect((await runCli(['generate', '--out', catalog, '--cards', '300', '--seed', '5'])).code).toBe(0);
}, 120_000);

const compile = (source: string, out: string, extra: Partial<CompileOptions> = {}) =>
  compileSnapshot({ source, out, threads: 'inline', workers: 0, ...extra });

type Rec = Record<string, any>;
const read = (cat: string, file: string): Rec[] => readFileSync(join(cat, file), 'utf8').split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l));
const write = (cat: string, file: string, recs: Rec[]) => writeFileSync(join(cat, file), recs.map((r) => JSON.stringify(r)).join('\n') + '\n');

/** Removes cards (their records, price lines, binder items and activity events). */
function removeCards(cat: string, gone: Set<string>): void {
  write(cat, 'cards.ndjson', read(cat, 'cards.ndjson').filter((c) => !gone.has(c.id)));
  write(cat, 'prices.ndjson', read(cat, 'prices.ndjson').filter((p) => !(p.entity === 'card' && gone.has(p.id))));
  write(cat, 'binders.ndjson', read(cat, 'binders.ndjson').map((b) => ({ ...b, items: b.items.filter((i: Rec) => !(i.entity === 'card' && gone.has(i.id))) })));
  write(cat, 'activity.ndjson', read(cat, 'activity.ndjson').filter((a) => ![...gone].some((id) => JSON.stringify(a).includes(`"${id}"`))));
}

/** Index rows as a full compile must write them, and the pack numbers the rows use and the packs table lists. */
function indexOf(root: string, id = currentId(root)!) {
  const db = new Database(join(root, id, 'objects.sqlite'), { readonly: true });
  try {
    const rows = db.prepare('SELECT key, hex(sha256) AS sha, length, input FROM objects ORDER BY key').all() as { key: string; sha: string; length: number; input: string | null }[];
    const used = (db.prepare('SELECT DISTINCT pack FROM objects ORDER BY pack').pluck().all() as number[]).join(',');
    const listed = db.prepare('SELECT seq, sha256, size FROM packs ORDER BY seq').all() as { seq: number; sha256: string; size: number }[];
    return { rows, used, listed };
  } finally {
    db.close();
  }
}

/** The incremental snapshot in `root` against a full compile of `cat`, its previous snapshot `before`, its manifest and change list. */
async function expectLikeFullCompile(cat: string, root: string, before: string) {
  const fresh = tempDir();
  await compile(cat, fresh);
  const id = currentId(root)!;
  const mine = indexOf(root);
  expect(mine.rows).toEqual(indexOf(fresh).rows);
  // Every pack the rows use is listed, every listed pack is used, and the manifest lists the same.
  expect(mine.used).toBe(mine.listed.map((p) => p.seq).join(','));
  const header = manifestHeader(root, id);
  expect(header.packs).toEqual(mine.listed.map(({ sha256, size }) => ({ sha256, size })));
  expect(header.objects).toBe(mine.rows.length);
  for (const p of mine.listed) expect(readdirSync(join(root, 'packs'))).toContain(`${p.sha256}.pack`);
  // The change list and counts are the difference between the two indexes.
  const prev = new Map(indexOf(root, before).rows.map((r) => [r.key, r.sha]));
  const now = new Map(mine.rows.map((r) => [r.key, r.sha]));
  const want: { key: string; change: string }[] = [];
  for (const [key, sha] of now) if (prev.get(key) !== sha) want.push({ key, change: prev.has(key) ? 'changed' : 'new' });
  for (const key of prev.keys()) if (!now.has(key)) want.push({ key, change: 'removed' });
  want.sort((a, b) => (a.key < b.key ? -1 : 1));
  const changes = readFileSync(join(root, id, 'changes.ndjson'), 'utf8').split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l));
  expect(changes).toEqual(want);
  const count = (c: string) => want.filter((w) => w.change === c).length;
  expect(header.counts).toEqual({ new: count('new'), changed: count('changed'), unchanged: now.size - count('new') - count('changed'), removed: count('removed') });
  return header.counts as { new: number; changed: number; unchanged: number; removed: number };
}

/** Raises the last price of every `every`th price line by `cents`. */
function bumpLastPrices(cat: string, every: number, cents: number): void {
  write(cat, 'prices.ndjson', read(cat, 'prices.ndjson').map((p, i) => {
    if (i % every === 0) p.usdCents[p.usdCents.length - 1] = (p.usdCents[p.usdCents.length - 1] ?? 100) + cents;
    return p;
  }));
}

/** A prices-only change: like a full compile, some objects changed, none removed. */
async function expectPricesOnlyChange(cat: string, root: string, before: string) {
  const counts = await expectLikeFullCompile(cat, root, before);
  expect(counts.changed).toBeGreaterThan(0);
  expect(counts.removed).toBe(0);
}

async function changedCopy(edit: (cat: string, root: string) => void) {
  const cat = join(tempDir(), 'catalog');
  cpSync(catalog, cat, { recursive: true });
  const root = tempDir();
  await compile(cat, root);
  const before = currentId(root)!;
  edit(cat, root);
  await compile(cat, root);
  return { cat, root, before };
}

describe('incremental object index (a copy of the previous one)', () => {
  it('when prices change then its rows equal a full compile and only the re-rendered objects are listed as changed', async () => {
    const { cat, root, before } = await changedCopy((c) => {
      bumpLastPrices(c, 10, 7);
    });
    await expectPricesOnlyChange(cat, root, before);
  }, 120_000);

  it('when the previous index has no row count or live bytes (written before they were kept) then they are counted and the rows equal a full compile', async () => {
    const { cat, root, before } = await changedCopy((c, r) => {
      const db = new Database(join(r, currentId(r)!, 'objects.sqlite'));
      try {
        const gone = db.prepare("DELETE FROM object_index_meta WHERE key IN ('object_rows', 'pack_live_bytes')").run().changes;
        expect(gone).toBe(2);
      } finally {
        db.close();
      }
      bumpLastPrices(c, 25, 3);
    });
    await expectPricesOnlyChange(cat, root, before);
  }, 120_000);

  it('when a card is removed then its five objects are deleted and the rows equal a full compile', async () => {
    const named = (c: string) => ['binders.ndjson', 'activity.ndjson'].map((f) => readFileSync(join(c, f), 'utf8')).join('\n');
    const { cat, root, before } = await changedCopy((c) => {
      const gone = read(c, 'cards.ndjson').map((x) => x.id).filter((id) => !named(c).includes(`"${id}"`)).at(-1)!;
      removeCards(c, new Set([gone]));
    });
    const counts = await expectLikeFullCompile(cat, root, before);
    expect(counts.removed).toBeGreaterThanOrEqual(5);
  }, 120_000);

  it('when a card is added then its objects are new and the rows equal a full compile', async () => {
    const { cat, root, before } = await changedCopy((c) => {
      const cards = read(c, 'cards.ndjson');
      const model = cards[0];
      cards.push({ ...model, id: `${model.game}-${model.setCode}-9999`, number: '9999', name: 'Added Later' });
      write(c, 'cards.ndjson', cards);
    });
    const counts = await expectLikeFullCompile(cat, root, before);
    expect(counts.new).toBeGreaterThanOrEqual(5);
  }, 120_000);

  it('when a set is removed with its cards then its pages and cards are deleted and the rows equal a full compile', async () => {
    const { cat, root, before } = await changedCopy((c) => {
      const sets = read(c, 'sets.ndjson');
      const gone = sets.at(-1)!;
      write(c, 'sets.ndjson', sets.slice(0, -1));
      removeCards(c, new Set(read(c, 'cards.ndjson').filter((x) => x.game === gone.game && x.setCode === gone.code).map((x) => x.id)));
    });
    const counts = await expectLikeFullCompile(cat, root, before);
    expect(counts.removed).toBeGreaterThan(5);
  }, 120_000);

  it('when the previous snapshot is of the per-URL layout then its unchanged objects are copied into a pack and the rows equal a full compile', async () => {
    const cat = join(tempDir(), 'catalog');
    cpSync(catalog, cat, { recursive: true });
    const packed = tempDir();
    await compile(cat, packed);
    const root = tempDir();
    await unpackRoot(packed, root, generateKeyPairSync('ed25519').privateKey);
    const before = currentId(root)!;
    write(cat, 'prices.ndjson', read(cat, 'prices.ndjson').map((p, i) => {
      if (i % 10 === 0) p.usdCents[p.usdCents.length - 1] = (p.usdCents[p.usdCents.length - 1] ?? 100) + 7;
      return p;
    }));
    const summary = await compile(cat, root);
    expect(summary.counts.changed).toBeGreaterThan(0);
    expect(summary.counts.unchanged).toBeGreaterThan(summary.counts.changed);
    const fresh = tempDir();
    await compile(cat, fresh);
    expect(indexOf(root).rows).toEqual(indexOf(fresh).rows);
    // Its change list against the per-URL manifest: the same keys as the packed roots' own.
    const changes = (r: string) => readFileSync(join(r, currentId(r)!, 'changes.ndjson'), 'utf8');
    await compile(cat, packed);
    expect(changes(root)).toBe(changes(packed));
    expect(readdirSync(join(root, currentId(root)!)).sort()).not.toContain('objects.sqlite.previous');
    expect(before).not.toBe(currentId(root));
  }, 120_000);

  it('when a compile fails part-way then current and the previous index are untouched', async () => {
    const cat = join(tempDir(), 'catalog');
    cpSync(catalog, cat, { recursive: true });
    const root = tempDir();
    await compile(cat, root);
    const before = currentId(root)!;
    const hash = () => createHash('sha256').update(readFileSync(join(root, before, 'objects.sqlite'))).digest('hex');
    const was = hash();
    // Prices of many cards changed (rows of the copy replaced), then a broken line near the end.
    const lines = read(cat, 'prices.ndjson').map((p, i) => {
      if (i % 3 === 0) p.usdCents[p.usdCents.length - 1] = (p.usdCents[p.usdCents.length - 1] ?? 100) + 1;
      return JSON.stringify(p);
    });
    lines[lines.length - 2] = '{"entity":"card","id":';
    writeFileSync(join(cat, 'prices.ndjson'), lines.join('\n') + '\n');
    await expect(compile(cat, root)).rejects.toThrow();
    expect(currentId(root)).toBe(before);
    expect(hash()).toBe(was);
    expect(readdirSync(root).filter((n) => /^\d{8}T/.test(n))).toEqual([before]);
  }, 120_000);
});
