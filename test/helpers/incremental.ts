/**
 * What the incremental compile tests share: the benchmark's 1% price change, and the check that an
 * incremental snapshot holds exactly what a full compile of the same catalog would.
 */
import { expect } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SEARCH_DB_FILE } from '../../snapshots/keys.js';
import { runCli, tempDir } from './cli.js';
import { currentId, manifestEntries, manifestHeader } from './snapshot-files.js';

/** What the compile says on stderr when it takes the catalog stored with the current snapshot (compile/stored-catalog.ts). */
export const STORED_CATALOG_NOTE = "read catalog: its files are unchanged since the current snapshot; taken from that snapshot's stored catalog";

/** Adds 7 cents to the last price of every 100th price line of `cat` (cards and figures), as the benchmark does; returns how many. */
export function touchOnePercentOfPrices(cat: string): number {
  let changed = 0;
  const lines = readFileSync(join(cat, 'prices.ndjson'), 'utf8').split('\n').map((l, i) => {
    if (l.length === 0 || i % 100 !== 0) return l;
    const rec = JSON.parse(l);
    rec.usdCents[rec.usdCents.length - 1] = (rec.usdCents[rec.usdCents.length - 1] ?? 100) + 7;
    changed++;
    return JSON.stringify(rec);
  });
  writeFileSync(join(cat, 'prices.ndjson'), lines.join('\n'));
  return changed;
}

/** Compiles `cat` into a fresh root and expects the same objects (key, SHA-256, size), bulk files and search rows as `root`'s current snapshot. */
export async function expectSameAsFullCompile(cat: string, root: string) {
  const fresh = tempDir();
  const f = await runCli(['compile', '--source', cat, '--out', fresh]);
  expect(f.code, f.stderr).toBe(0);
  const objects = (dir: string) => manifestEntries(dir).map((e) => `${e.key} ${e.sha256} ${e.size}`);
  expect(objects(root)).toEqual(objects(fresh));
  // The document and sets bulk files too: built from the previous snapshot's lines and segments,
  // byte-identical to ones built from every object (the change list differs, by definition).
  // Their input fingerprints too: the next compile re-uses a file whose input is the same.
  const bulk = (dir: string) =>
    (manifestHeader(dir).bulk as { name: string; sha256: string; count: number; input: string }[]).filter((b) => b.name !== 'changes').map((b) => `${b.name} ${b.sha256} ${b.count} ${b.input}`);
  expect(bulk(root)).toEqual(bulk(fresh));
  const search = (dir: string) => {
    const db = new Database(join(dir, currentId(dir)!, SEARCH_DB_FILE), { readonly: true });
    try {
      const fts = db.prepare(`SELECT rowid FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid`);
      return {
        rows: db.prepare('SELECT * FROM search_entries ORDER BY rank').all(),
        meta: db.prepare('SELECT * FROM search_meta ORDER BY key').all(),
        // The indexed text too: a few words and prefixes every catalog has.
        matches: ['a*', 'the', 'cardmtg', 'figure', 'set*'].map((q) => fts.all(q)),
      };
    } finally {
      db.close();
    }
  };
  expect(search(root)).toEqual(search(fresh));
}
