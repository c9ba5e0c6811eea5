/**
 * Price lines an incremental compile takes from the previous snapshot instead of parsing them
 * (compiler/compile/price-line-store.ts): every case compiles incrementally through the CLI and
 * expects exactly what a full compile of the same catalog gives (objects, search rows, bulk files,
 * rejects), plus how many lines were taken from the store.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { runCli, startCli, tempDir } from '../helpers/cli.js';
import { currentId, manifestEntries, manifestHeader } from '../helpers/snapshot-files.js';
import { OBJECT_INDEX_FILE, SEARCH_DB_FILE } from '../../snapshots/keys.js';
import { PRICE_LINES_FILE, type StoredPriceLine } from '../../compiler/compile/price-line-store.js';
import { decodePriceLines } from '../../compiler/compile/price-line-codec.js';

let catalog: string;

beforeAll(async () => {
  catalog = join(tempDir(), 'catalog');
  const r = await runCli(['generate', '--out', catalog, '--cards', '400', '--seed', '11']);
  expect(r.code, r.stderr).toBe(0);
});

const REJECTS = ['--max-rejects', '100000'];

async function compile(cat: string, root: string, extra: string[] = REJECTS) {
  const r = await runCli(['compile', '--source', cat, '--out', root, ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

/** A copy of the test catalog and a root holding its first snapshot. */
async function compiledCopy(): Promise<{ cat: string; root: string }> {
  const cat = join(tempDir(), 'catalog');
  cpSync(catalog, cat, { recursive: true });
  const root = tempDir();
  await compile(cat, root);
  return { cat, root };
}

function priceLines(cat: string): string[] {
  return readFileSync(join(cat, 'prices.ndjson'), 'utf8').split('\n').filter((l) => l.length > 0);
}

function writePriceLines(cat: string, lines: string[]): void {
  writeFileSync(join(cat, 'prices.ndjson'), lines.join('\n') + '\n');
}

/** "price lines: X of N unchanged ..." of a compile's stderr, or null when it has none. */
function reusedOf(stderr: string): { reused: number; of: number } | null {
  const m = /price lines: (\d+) of (\d+) unchanged, taken from the previous snapshot without parsing/.exec(stderr);
  return m ? { reused: Number(m[1]), of: Number(m[2]) } : null;
}

/** The skipped-record lines of a compile's output. */
function skipped(r: { stdout: string; stderr: string }): string[] {
  return `${r.stdout}\n${r.stderr}`.split('\n').map((l) => /skipped [a-z-]+\.ndjson:\d+: [^"]*/.exec(l)?.[0]).filter((l): l is string => l !== undefined).sort();
}

/** Objects, search rows and bulk files of the current snapshot of a root. */
function contents(root: string) {
  const db = new Database(join(root, currentId(root)!, SEARCH_DB_FILE), { readonly: true });
  try {
    return {
      objects: manifestEntries(root).map((e) => `${e.key} ${e.sha256} ${e.size}`),
      search: db.prepare('SELECT * FROM search_entries ORDER BY rank').all(),
      // The change list differs by definition (changes against the previous snapshot, or none).
      bulk: (manifestHeader(root).bulk as { name: string; sha256: string; count: number }[]).filter((b) => b.name !== 'changes').map((b) => `${b.name} ${b.sha256} ${b.count}`),
    };
  } finally {
    db.close();
  }
}

/** Compiles `cat` incrementally into `root` and from scratch; expects the same result; returns the incremental run. */
async function expectSameAsFull(cat: string, root: string) {
  const incremental = await compile(cat, root);
  const fresh = tempDir();
  const full = await compile(cat, fresh);
  expect(reusedOf(full.stderr)).toBeNull();
  expect(contents(root)).toEqual(contents(fresh));
  expect(skipped(incremental)).toEqual(skipped(full));
  return incremental;
}

/** Every line of the current snapshot's stored price lines, decoded, in stored order. */
function storedLines(root: string): StoredPriceLine[] {
  const db = new Database(join(root, currentId(root)!, PRICE_LINES_FILE), { readonly: true });
  try {
    const rows = db.prepare('SELECT lines FROM price_lines ORDER BY chunk').all() as { lines: Buffer }[];
    return rows.flatMap((r) => decodePriceLines(r.lines)!);
  } finally {
    db.close();
  }
}

/** Runs SQL on the current snapshot's stored price lines (to age or damage them). */
function onStore(root: string, sql: (db: Database.Database) => void, file: string = PRICE_LINES_FILE): void {
  const db = new Database(join(root, currentId(root)!, file));
  try {
    sql(db);
  } finally {
    db.close();
  }
}

// Each case compiles three times (first, incremental, full).
describe('price lines taken from the previous snapshot', { timeout: 300_000 }, () => {
  it('when 1% of the lines changed then the others are not parsed, the changed ones are, and the snapshot equals a full compile', async () => {
    const { cat, root } = await compiledCopy();
    const lines = priceLines(cat);
    let changed = 0;
    writePriceLines(cat, lines.map((l, i) => {
      if (i % 100 !== 0) return l;
      changed++;
      const rec = JSON.parse(l);
      rec.usdCents[rec.usdCents.length - 1] = (rec.usdCents[rec.usdCents.length - 1] ?? 100) + 7;
      return JSON.stringify(rec);
    }));
    const r = await expectSameAsFull(cat, root);
    expect(reusedOf(r.stderr)).toEqual({ reused: lines.length - changed, of: lines.length });
    // The set and artist pages of the changed cards were patched from the previous ones, not rendered.
    expect(Number(/(\d+) list pages patched from the previous snapshot's/.exec(r.stderr)?.[1] ?? 0)).toBeGreaterThan(0);
    // The next compile re-uses every line, the changed ones included (they were stored this time).
    const again = await compile(cat, root);
    expect(reusedOf(again.stderr)).toEqual({ reused: lines.length, of: lines.length });
  });

  it("when meta.json's asOf moves back then the unparsed lines that now run past it are rejected as in a full compile", async () => {
    const { cat, root } = await compiledCopy();
    const meta = JSON.parse(readFileSync(join(cat, 'meta.json'), 'utf8'));
    const day = new Date(`${meta.asOf}T00:00:00Z`);
    day.setUTCDate(day.getUTCDate() - 3);
    writeFileSync(join(cat, 'meta.json'), JSON.stringify({ ...meta, asOf: day.toISOString().slice(0, 10) }));
    const r = await expectSameAsFull(cat, root);
    expect(skipped(r).some((l) => l.includes('after asOf'))).toBe(true);
    // Every line was unchanged: each accepted one came from the store, and fewer were accepted.
    const { reused, of } = reusedOf(r.stderr)!;
    expect(reused).toBe(of);
    expect(of).toBeLessThan(priceLines(cat).length);
  });

  it('when a card is removed or a line is duplicated then its unparsed lines are rejected as in a full compile', async () => {
    const { cat, root } = await compiledCopy();
    const lines = priceLines(cat);
    const cardLines = lines.filter((l) => JSON.parse(l).entity === 'card');
    // A priced card no binder or activity event names (a record naming an unknown card is a bad record).
    const named = ['binders.ndjson', 'activity.ndjson'].map((f) => readFileSync(join(cat, f), 'utf8')).join('\n');
    const removed = cardLines.slice(20).map((l) => JSON.parse(l).id as string).find((id) => !named.includes(`"${id}"`))!;
    const cards = readFileSync(join(cat, 'cards.ndjson'), 'utf8').split('\n').filter((l) => l.length > 0);
    writeFileSync(join(cat, 'cards.ndjson'), cards.filter((l) => JSON.parse(l).id !== removed).join('\n') + '\n');
    // The same line twice (the copy byte-identical) and a line of another card appended at the end.
    writePriceLines(cat, [...lines.slice(0, 10), lines[5], ...lines.slice(10), cardLines[7]]);
    const r = await expectSameAsFull(cat, root);
    const reasons = skipped(r);
    expect(reasons.some((l) => l.includes(`refers to unknown card ${removed}`))).toBe(true);
    expect(reasons.filter((l) => l.includes('duplicate price series'))).toHaveLength(2);
  });

  it('when the cards are put in another order then each stored line gets its entity\'s new place, and the next price change, read by place, equals a full compile', async () => {
    const { cat, root } = await compiledCopy();
    const cardsFile = join(cat, 'cards.ndjson');
    const cards = readFileSync(cardsFile, 'utf8').split('\n').filter((l) => l.length > 0);
    writeFileSync(cardsFile, [...cards].reverse().join('\n') + '\n');
    // Not the same catalog files: every line is still taken from the store, and those whose place
    // moved are stored again with the new one (the card's input is the same).
    const moved = await expectSameAsFull(cat, root);
    expect(reusedOf(moved.stderr)!.reused).toBe(priceLines(cat).length);
    const places = new Map<string, number>();
    for (const file of ['cards.ndjson', 'figures.ndjson']) {
      readFileSync(join(cat, file), 'utf8').split('\n').filter((l) => l.length > 0).forEach((l, i) => places.set(`${file === 'cards.ndjson' ? 'card' : 'figure'} ${JSON.parse(l).id}`, i));
    }
    const stored = storedLines(root);
    expect(stored.length).toBe(priceLines(cat).length);
    for (const l of stored) {
      // A line without a price stores no place (its entity is looked up by id).
      const expected = l.facts.summary === null ? -1 : places.get(`${l.facts.entity} ${l.facts.id}`);
      expect(l.slot, `${l.facts.entity} ${l.facts.id}`).toBe(expected);
    }
    // Only prices change now: the stored catalog is taken and known lines are read by their place.
    const lines = priceLines(cat);
    writePriceLines(cat, lines.map((l, i) => {
      if (i % 50 !== 0) return l;
      const rec = JSON.parse(l);
      rec.usdCents[rec.usdCents.length - 1] = (rec.usdCents[rec.usdCents.length - 1] ?? 100) + 11;
      return JSON.stringify(rec);
    }));
    const r = await expectSameAsFull(cat, root);
    expect(r.stderr).toContain('taken from that snapshot\'s stored catalog');
  });

  it('when only prices changed and a stored line is duplicated then the copy is rejected as in a full compile, though its catalog checks are skipped', async () => {
    const { cat, root } = await compiledCopy();
    const lines = priceLines(cat);
    // Byte-identical copies of stored lines: one right after, one at the end. The catalog files are
    // unchanged, so the stored catalog is taken and known lines skip the existence and asOf checks.
    writePriceLines(cat, [...lines.slice(0, 10), lines[5], ...lines.slice(10), lines[30]]);
    const r = await expectSameAsFull(cat, root);
    expect(r.stderr).toContain('taken from that snapshot\'s stored catalog');
    const reasons = skipped(r).filter((l) => l.includes('duplicate price series'));
    expect(reasons).toHaveLength(2);
    expect(reasons.some((l) => l.includes('first on line 6'))).toBe(true);
  });

  it('when compiled then the stored lines are a file beside the snapshot that no manifest lists, only the current snapshot keeps, and the object index does not hold', async () => {
    const { cat, root } = await compiledCopy();
    const first = currentId(root)!;
    expect(existsSync(join(root, first, PRICE_LINES_FILE))).toBe(true);
    expect((manifestHeader(root).files as { name: string }[]).map((f) => f.name)).not.toContain(PRICE_LINES_FILE);
    // In 64 KB pages: its rows are chunks of about 2.5 MB (price-line-store.ts PAGE_BYTES).
    const file = new Database(join(root, first, PRICE_LINES_FILE), { readonly: true });
    expect(file.pragma('page_size', { simple: true })).toBe(65536);
    file.close();
    const tables = () => {
      const db = new Database(join(root, currentId(root)!, OBJECT_INDEX_FILE), { readonly: true });
      try {
        return db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
      } finally {
        db.close();
      }
    };
    expect(tables()).not.toContain('price_lines');
    await compile(cat, root);
    expect(currentId(root)).not.toBe(first);
    expect(existsSync(join(root, first, PRICE_LINES_FILE))).toBe(false);
    expect(existsSync(join(root, currentId(root)!, PRICE_LINES_FILE))).toBe(true);
    expect(readdirSync(join(root, currentId(root)!)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('when only prices change compile after compile then the store is appended to, a line changed back is taken from it, past a fifth superseded it is written afresh, and each snapshot equals a full compile', async () => {
    const { cat, root } = await compiledCopy();
    const original = priceLines(cat);
    const n = original.length;
    /** The lines with the last price of those `pick` chooses raised by `by` cents. */
    const raised = (pick: (i: number) => boolean, by: number) => original.map((l, i) => {
      if (!pick(i)) return l;
      const rec = JSON.parse(l);
      rec.usdCents[rec.usdCents.length - 1] = (rec.usdCents[rec.usdCents.length - 1] ?? 100) + by;
      return JSON.stringify(rec);
    });
    const meta = () => {
      const db = new Database(join(root, currentId(root)!, PRICE_LINES_FILE), { readonly: true });
      try {
        return db.prepare('SELECT m.lines, l.live FROM price_lines_meta m JOIN price_lines_live l ON l.snapshot = ?').get(currentId(root)) as { lines: number; live: number };
      } finally {
        db.close();
      }
    };
    expect(meta()).toEqual({ lines: n, live: n });
    const tenth = (i: number) => i % 10 === 0;
    const firstChange = original.filter((_, i) => tenth(i)).length;

    // A tenth changed: appended, the superseded lines kept.
    writePriceLines(cat, raised(tenth, 7));
    let r = await expectSameAsFull(cat, root);
    expect(reusedOf(r.stderr)).toEqual({ reused: n - firstChange, of: n });
    expect(meta()).toEqual({ lines: n + firstChange, live: n });

    // Changed back: every line is in the store (the first compile's lines too), nothing appended.
    writePriceLines(cat, original);
    r = await expectSameAsFull(cat, root);
    expect(reusedOf(r.stderr)).toEqual({ reused: n, of: n });
    expect(meta()).toEqual({ lines: n + firstChange, live: n });

    // Another sixth changed: still under a fifth superseded before it, so appended again.
    const sixth = (i: number) => i % 6 === 3;
    const secondChange = original.filter((_, i) => sixth(i)).length;
    writePriceLines(cat, raised(sixth, 11));
    r = await expectSameAsFull(cat, root);
    expect(reusedOf(r.stderr)).toEqual({ reused: n - secondChange, of: n });
    expect(meta()).toEqual({ lines: n + firstChange + secondChange, live: n });
    expect((firstChange + secondChange) / (n + firstChange + secondChange)).toBeGreaterThan(0.2);

    // Past a fifth superseded: written afresh, only the lines of the price file.
    writePriceLines(cat, raised(tenth, 13));
    r = await expectSameAsFull(cat, root);
    expect(reusedOf(r.stderr)).toEqual({ reused: n - firstChange, of: n });
    expect(meta()).toEqual({ lines: n, live: n });
    expect(storedLines(root)).toHaveLength(n);
  });

  it('when incremental compiles of price changes are killed at random moments then the store is never trusted wrong: each compile after equals a full compile', async () => {
    const { cat, root } = await compiledCopy();
    const original = priceLines(cat);
    const changedBy = (by: number) => original.map((l, i) => {
      if (i % 7 !== by % 7) return l;
      const rec = JSON.parse(l);
      rec.usdCents[rec.usdCents.length - 1] = (rec.usdCents[rec.usdCents.length - 1] ?? 100) + by;
      return JSON.stringify(rec);
    });
    const started = performance.now();
    writePriceLines(cat, changedBy(1));
    await expectSameAsFull(cat, root);
    const incrementalMs = performance.now() - started;
    for (let trial = 2; trial < 6; trial++) {
      writePriceLines(cat, changedBy(trial));
      const child = startCli(['compile', '--source', cat, '--out', root, ...REJECTS]);
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      // Anywhere in an incremental compile (its store appended to near the end of the price file).
      await Promise.race([sleep(Math.random() * incrementalMs * 0.6), exited]);
      child.kill('SIGKILL');
      await exited;
      // The next one, from whatever the kill left, against a full compile of the same files.
      writePriceLines(cat, changedBy(trial + 10));
      await expectSameAsFull(cat, root);
    }
  });

  it('when the previous object index holds price line tables (an older compiler) then the next index drops them and equals a full compile', async () => {
    const { cat, root } = await compiledCopy();
    onStore(root, (db) => db.exec(`CREATE TABLE price_lines (chunk INTEGER PRIMARY KEY, sha1 BLOB NOT NULL, lines BLOB NOT NULL);
      CREATE TABLE price_lines_meta (version TEXT NOT NULL, lines INTEGER NOT NULL);
      INSERT INTO price_lines VALUES (0, zeroblob(20), zeroblob(1000000)); INSERT INTO price_lines_meta VALUES ('old', 1)`), OBJECT_INDEX_FILE);
    const before = readFileSync(join(root, currentId(root)!, OBJECT_INDEX_FILE)).length;
    await expectSameAsFull(cat, root);
    const db = new Database(join(root, currentId(root)!, OBJECT_INDEX_FILE), { readonly: true });
    try {
      expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name LIKE 'price_lines%'").pluck().get()).toBe(0);
    } finally {
      db.close();
    }
    // Compacted: the dropped table's megabyte is not carried as free pages.
    expect(readFileSync(join(root, currentId(root)!, OBJECT_INDEX_FILE)).length).toBeLessThan(before - 900_000);
  });

  it('when the stored lines were written by another compiler version then none is trusted and every line is parsed', async () => {
    const { cat, root } = await compiledCopy();
    onStore(root, (db) => db.prepare('UPDATE price_lines_meta SET version = ?').run('an older compiler'));
    const r = await expectSameAsFull(cat, root);
    expect(reusedOf(r.stderr)).toBeNull();
  });

  it.each([
    ['a chunk whose bytes do not match its SHA-1', (db: Database.Database) => db.prepare('UPDATE price_lines SET lines = substr(lines, 1, length(lines) - 1) WHERE chunk = 0').run()],
    ['a chunk cut short with a matching SHA-1', (db: Database.Database) => {
      const bytes = (db.prepare('SELECT lines FROM price_lines WHERE chunk = 0').pluck().get() as Buffer).subarray(0, 100);
      db.prepare('UPDATE price_lines SET lines = ?, sha1 = ? WHERE chunk = 0').run(bytes, createHash('sha1').update(bytes).digest());
    }],
    ['a line count that does not match the chunks', (db: Database.Database) => db.prepare('UPDATE price_lines_meta SET lines = lines + 1').run()],
    ['a table of another shape', (db: Database.Database) => db.exec('DROP TABLE price_lines; CREATE TABLE price_lines (chunk INTEGER, junk TEXT); INSERT INTO price_lines VALUES (0, \'x\')')],
  ])('when the previous snapshot holds %s then the store is ignored and every line is parsed', async (_, damage) => {
    const { cat, root } = await compiledCopy();
    onStore(root, damage);
    const r = await expectSameAsFull(cat, root);
    expect(reusedOf(r.stderr)).toBeNull();
  });
});
