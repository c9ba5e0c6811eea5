/**
 * The price lines a snapshot compiled, stored so the next compile does not parse the ones that did
 * not change (docs/snapshots.md, "Incremental compiles"). Parsing and validating the 275 MB price
 * file of a 100,000-card catalog was a large part of an incremental compile's `cards and figures`
 * phase, though 99% of its lines are byte-identical to the previous compile's.
 *
 * Per accepted line, keyed by the line's hash (streamPrices' `key`) and its length: the entity, the
 * last day of the series (for the asOf check), the first and last priced day (the catalog's price
 * range) and the PriceSummary, everything the compile takes from a line whose entity is not rendered
 * again. The lines are stored in chunks (price-line-codec.ts, each with its SHA-1) in a table of the
 * snapshot's objects.sqlite (covered by the manifest with it), beside the version they were written
 * by: the renderer code hash and the code of the source checks and of this module, so a changed
 * compiler parses every line again instead of trusting an older summary. A store that is missing, of
 * another version, or with any chunk that does not match its SHA-1 or decode exactly is ignored whole:
 * the compile then parses every line, as a first compile does.
 *
 * @example
 *   const stored = readPriceLines(join(previous.dir, OBJECT_INDEX_FILE), version);
 *   const hit = stored.get(line.key, line.text.length);   // facts of an unchanged line, or undefined
 *   writePriceLines(join(dir, OBJECT_INDEX_FILE), { version, lines });
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { PriceSeriesRecord } from '../../snapshots/records.js';
import { fingerprint } from '../../snapshots/codec.js';
import { seriesEnd, type PriceLineIdentity } from '../source/index.js';
import { summarizePrices } from '../render/price-summary.js';
import { extendPriceRange, type PriceRange } from '../render/summary.js';
import type { PriceSummary } from '../render/types.js';
import { decodePriceLines, encodePriceLines } from './price-line-codec.js';

/** Bump when what a row means changes without a code change this version would see. */
const STORE_FORMAT = 'price-lines/1';
const TABLE = 'price_lines';
const META = 'price_lines_meta';

/** What the compile takes from an accepted price line. */
export interface PriceLineFacts extends PriceLineIdentity {
  /** First and last priced day of the series (extendPriceRange of it alone), null without a price. */
  range: PriceRange;
  /** summarizePrices of the series. */
  summary: PriceSummary | null;
}

/** One accepted line of a compile: its key, its length in UTF-16 units (a second check) and facts. */
export interface StoredPriceLine {
  key: string;
  chars: number;
  facts: PriceLineFacts;
}

export interface PriceLinesToStore {
  version: string;
  lines: StoredPriceLine[];
}

export interface StoredPriceLines {
  readonly size: number;
  /** The facts of a stored line with this key and length, or undefined. */
  get(key: string, chars: number): PriceLineFacts | undefined;
}

export const NO_STORED_PRICE_LINES: StoredPriceLines = { size: 0, get: () => undefined };

/** The facts of a parsed series, exactly what a full compile computes from it. */
export function priceLineFacts(record: PriceSeriesRecord): PriceLineFacts {
  return { entity: record.entity, id: record.id, end: seriesEnd(record), range: extendPriceRange(null, record), summary: summarizePrices(record) };
}

/** extendPriceRange with a line's own range instead of its series (the same result). */
export function mergePriceRange(range: PriceRange, line: PriceRange): PriceRange {
  if (line === null) return range;
  if (range === null) return line;
  return { from: line.from < range.from ? line.from : range.from, to: line.to > range.to ? line.to : range.to };
}

/**
 * The version rows are written and trusted under: the renderer code hash (summaries) plus the code
 * of the source checks (what "accepted" means) and of this module and its codec (what a line holds).
 */
export function priceLinesVersion(codeHash: string): string {
  const parts: string[] = [STORE_FORMAT, codeHash];
  const sourceDir = fileURLToPath(new URL('../source', import.meta.url));
  for (const name of readdirSync(sourceDir).sort()) {
    if (!/\.(js|ts)$/.test(name) || name.endsWith('.d.ts')) continue;
    parts.push(name, readFileSync(join(sourceDir, name), 'utf8'));
  }
  // This file and its codec beside it (.js when built, .ts when a test runs the source).
  const codec = import.meta.url.replace(/price-line-store\.(js|ts)$/, 'price-line-codec.$1');
  for (const own of [import.meta.url, codec]) parts.push(readFileSync(fileURLToPath(own), 'utf8'));
  return fingerprint(...parts);
}

/** Lines per row of the table: a row is one chunk of price-line-codec.ts bytes, decoded in one go. */
const CHUNK = 10_000;

/**
 * The stored lines of an object index file, or none when the file, the tables or the version are
 * missing, a chunk's SHA-1 does not match its bytes or a chunk does not decode. Never throws: a store
 * that cannot be trusted is not used.
 */
export function readPriceLines(path: string, version: string): StoredPriceLines {
  let db: Database.Database | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)").pluck().all(TABLE, META);
    if (tables.length !== 2) return NO_STORED_PRICE_LINES;
    const meta = db.prepare(`SELECT version, lines FROM ${META}`).raw().all() as [unknown, unknown][];
    if (meta.length !== 1 || meta[0][0] !== version) return NO_STORED_PRICE_LINES;
    const byKey = new Map<string, StoredPriceLine>();
    const chunks = db.prepare(`SELECT sha1, lines FROM ${TABLE} ORDER BY chunk`).raw().iterate() as Iterable<[unknown, unknown]>;
    for (const [sha1, bytes] of chunks) {
      if (!Buffer.isBuffer(sha1) || !Buffer.isBuffer(bytes) || !createHash('sha1').update(bytes).digest().equals(sha1)) return NO_STORED_PRICE_LINES;
      const lines = decodePriceLines(bytes);
      if (lines === null) return NO_STORED_PRICE_LINES;
      for (const line of lines) {
        if (byKey.has(line.key)) return NO_STORED_PRICE_LINES;
        byKey.set(line.key, line);
      }
    }
    if (byKey.size !== meta[0][1]) return NO_STORED_PRICE_LINES;
    return {
      size: byKey.size,
      get(key, chars) {
        const hit = byKey.get(key);
        return hit !== undefined && hit.chars === chars ? hit.facts : undefined;
      },
    };
  } catch {
    return NO_STORED_PRICE_LINES;
  } finally {
    db?.close();
  }
}

/**
 * Writes (replaces) the stored lines in an object index file: a fresh one, or a copy of the previous
 * snapshot's, whose rows this drops first. One transaction.
 */
export function writePriceLines(path: string, store: PriceLinesToStore): void {
  const db = new Database(path, { fileMustExist: true });
  try {
    // The file is not published yet (a failed compile removes it): no journal, like the index rows.
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.transaction(() => {
      db.exec(`DROP TABLE IF EXISTS ${TABLE}; DROP TABLE IF EXISTS ${META};
        CREATE TABLE ${META} (version TEXT NOT NULL, lines INTEGER NOT NULL);
        CREATE TABLE ${TABLE} (chunk INTEGER PRIMARY KEY, sha1 BLOB NOT NULL, lines BLOB NOT NULL);`);
      db.prepare(`INSERT INTO ${META} VALUES (?, ?)`).run(store.version, store.lines.length);
      const insert = db.prepare(`INSERT INTO ${TABLE} VALUES (?, ?, ?)`);
      for (let i = 0; i < store.lines.length; i += CHUNK) {
        const bytes = encodePriceLines(store.lines.slice(i, i + CHUNK));
        insert.run(i / CHUNK, createHash('sha1').update(bytes).digest(), bytes);
      }
    })();
  } finally {
    db.close();
  }
}
