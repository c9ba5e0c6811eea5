/**
 * The price lines a snapshot compiled, stored so the next compile does not parse the ones that did
 * not change (docs/snapshots.md, "Incremental compiles"). Parsing and validating the 275 MB price
 * file of a 100,000-card catalog was a large part of an incremental compile's `cards and figures`
 * phase, though 99% of its lines are byte-identical to the previous compile's.
 *
 * Per accepted line, keyed by the SHA-1 of its bytes (streamPrices' `key`) and its length in bytes: the entity, the
 * last day of the series (for the asOf check), the first and last priced day (the catalog's price
 * range) and the PriceSummary, everything the compile takes from a line whose entity is not rendered
 * again. The lines are stored in chunks (price-line-codec.ts, each with its SHA-1) in an SQLite file
 * of their own beside the snapshot (PRICE_LINES_FILE), with the version they were written by: the
 * renderer code hash and the code of the source checks and of this module, so a changed compiler
 * parses every line again instead of trusting an older summary. A store that is missing, of another
 * version, or with any chunk that does not match its SHA-1 or decode exactly is ignored whole: the
 * compile then parses every line, as a first compile does.
 *
 * Compiler state, like the stored catalog (stored-catalog.ts): no manifest lists the file, so it is
 * never published, mirrored, served or verified, and only the current snapshot keeps one. It was a
 * table of the published object index before: at a million cards 247 MB of its 1.08 GB, hashed by
 * every publish and verify, uploaded by every publish to an object store and fetched by every mirror,
 * and moved into the index by each compile (1.6 s of an incremental one).
 *
 * @example
 *   const stored = readPriceLines(join(previous.dir, PRICE_LINES_FILE), version);
 *   const hit = stored.get(line.key, line.text.length);   // facts of an unchanged line, or undefined
 *   const writer = createPriceLineFile(newSnapshotDir, version);   // as lines are read
 *   writer.add({ key: line.key, input: token, bytes: line.size, facts });
 *   writer.finish();   // the file is in place
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { PriceSeriesRecord } from '../../snapshots/records.js';
import { fingerprint } from '../../snapshots/codec.js';
import { seriesEnd, type PriceLineIdentity } from '../source/index.js';
import { summarizePrices } from '../render/price-summary.js';
import { extendPriceRange, type PriceRange } from '../render/summary.js';
import type { PriceSummary } from '../render/types.js';
import { createPriceLineChunk, decodePriceLineAt, keyIs, readLineAt, skipPriceLineAt, type DecodedPriceLine, type LineFields } from './price-line-codec.js';
import { codeFiles } from './code-version.js';
import { createKeyIndex, keyIndexOf, type KeyIndex, type KeyIndexParts } from './price-line-keys.js';

/** Bump when what a row means changes without a code change this version would see. */
const STORE_FORMAT = 'price-lines/5';

/** The file in a snapshot folder. */
export const PRICE_LINES_FILE = 'price-lines.sqlite';
/** The tables an object index written before the file existed holds (object-table.ts drops them). */
export const PRICE_LINE_TABLES = ['price_lines', 'price_lines_meta'] as const;
const [TABLE, META] = PRICE_LINE_TABLES;
const CREATE_TABLES = `CREATE TABLE ${META} (version TEXT NOT NULL, lines INTEGER NOT NULL);
  CREATE TABLE ${TABLE} (chunk INTEGER PRIMARY KEY, sha1 BLOB NOT NULL, lines BLOB NOT NULL);`;

/** What the compile takes from an accepted price line. */
export interface PriceLineFacts extends PriceLineIdentity {
  /** First and last priced day of the series (extendPriceRange of it alone), null without a price. */
  range: PriceRange;
  /** summarizePrices of the series. */
  summary: PriceSummary | null;
}

/** One accepted line of a compile: its key, its length in bytes (a second check) and facts. */
export interface StoredPriceLine {
  key: string;
  /**
   * The token of the input fingerprint its entity had in that compile (object-table.ts
   * entityToken): when the catalog files but prices are the same too, an unchanged line means an
   * unchanged entity, re-used with this token without fingerprinting it again (entity-phase.ts).
   */
  input: string;
  /** The line's length in bytes (a second check beside its hash). */
  bytes: number;
  /**
   * Its entity's slot in that compile's price table, which is the entity's place in the catalog's
   * order (price-table.ts), or -1 for none: with the same catalog files the next compile claims and
   * prices the entity there, with no look-up by id (entity-phase.ts `storedSlot`).
   */
  slot: number;
  facts: PriceLineFacts;
}

/**
 * What a stored line gives the next compile: its facts and its entity's input token, and where its
 * bytes are in the chunk (`chunk`, `start`, `next`), which the next store takes as they are when the
 * line and its entity's input are unchanged (PriceLineWriter.addEncoded).
 */
export type KnownPriceLine = DecodedPriceLine;

export interface PriceLinesToStore {
  version: string;
  lines: StoredPriceLine[];
}

export interface StoredPriceLines {
  readonly size: number;
  /** The facts and input token of a stored line with this key and length, or undefined. */
  get(key: string, bytes: number): KnownPriceLine | undefined;
  /**
   * `get` without an object: the stored line with this key and length read into `out` (its chunk,
   * where it is, its fields); false when there is none. For a caller that takes the fields straight
   * into its columns (entity-phase.ts `take`).
   */
  find(key: string, bytes: number, out: LineFields): boolean;
  /** Closes the previous snapshot's price lines file the chunks are read from. */
  close(): void;
}

export const NO_STORED_PRICE_LINES: StoredPriceLines = { size: 0, get: () => undefined, find: () => false, close: () => undefined };

/** Chunks kept read at once: the lines are asked for in about the order they were stored, so each chunk is read once. */
const CHUNKS_KEPT = 4;

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
  const parts: string[] = [STORE_FORMAT, codeHash, ...codeFiles(new URL('../source', import.meta.url))];
  // This file and its codec beside it (.js when built, .ts when a test runs the source).
  const codec = import.meta.url.replace(/price-line-store\.(js|ts)$/, 'price-line-codec.$1');
  for (const own of [import.meta.url, codec]) parts.push(readFileSync(fileURLToPath(own), 'utf8'));
  return fingerprint(...parts);
}

/**
 * The file's page size (set before its first table; a file that exists keeps its own). A chunk is a
 * blob of about 2.5 MB: in 4 KB pages, writing a million cards' 235 MB of chunks took 0.56-2.27 s
 * and reading them back 0.37-0.86 s, in 64 KB pages 0.24-0.50 s and 0.22-0.42 s
 * (scripts/bench-price-lines.mjs, docs/benchmarks.md).
 */
const PAGE_BYTES = 65536;

/** Lines per row of the table: a row is one chunk of price-line-codec.ts bytes. */
const CHUNK = 10_000;
/** A stored line's place: chunk number × OFFSET_SPAN + byte offset in the chunk (a chunk is far smaller). */
const OFFSET_SPAN = 2 ** 26;
/** More stored lines than this is a damaged count, not a catalog (the key index is sized from it). */
const MAX_LINES = 2 ** 28;

/**
 * The stored lines of a price lines file, or none when the file, the tables or the version are
 * missing, a chunk's SHA-1 does not match its bytes or a chunk does not decode. Never throws: a store
 * that cannot be trusted is not used.
 */
export function readPriceLines(path: string, version: string): StoredPriceLines {
  return openPriceLines(path, scanPriceLines(path, version));
}

/**
 * What readPriceLines finds in the file before any line is asked for: each line's key and place, and
 * the chunk numbers. Plain arrays, so a thread can make it while the main thread reads the catalog
 * (compile/read-ahead.ts), and hand it over without copying.
 */
export interface ScannedPriceLines {
  keys: KeyIndexParts;
  chunkNumbers: number[];
}

/** The scan of a price lines file (readPriceLines), or null for a file that cannot be trusted. Never throws. */
export function scanPriceLines(path: string, version: string): ScannedPriceLines | null {
  let db: Database.Database | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)").pluck().all(TABLE, META);
    if (tables.length !== 2) return null;
    const meta = db.prepare(`SELECT version, lines FROM ${META}`).raw().all() as [unknown, unknown][];
    if (meta.length !== 1 || meta[0][0] !== version) return null;
    // Only each line's key and place are read here (its lengths say where the next one starts): a
    // chunk is read again from the file, checked and decoded when one of its lines is asked for, and
    // a line that does not decode then is unknown, parsed as a new one (at a million cards the
    // decoded lines were about 650 bytes each for the whole entity phase, the encoded chunks held in
    // memory about 220 MB, and decoding every line here too cost seconds).
    const lines = meta[0][1];
    if (typeof lines !== 'number' || !Number.isInteger(lines) || lines < 0 || lines > MAX_LINES) return null;
    // By key, read from the chunk's bytes in place (price-line-keys.ts): no string per line.
    const at = createKeyIndex(lines);
    const chunkNumbers: number[] = [];
    for (const [chunk, sha1, bytes] of db.prepare(`SELECT chunk, sha1, lines FROM ${TABLE} ORDER BY chunk`).raw().iterate() as Iterable<[unknown, unknown, unknown]>) {
      if (typeof chunk !== 'number' || !intact(sha1, bytes)) return null;
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      for (let o = 0; o < bytes.length; ) {
        const next = skipPriceLineAt(bytes, view, o);
        if (next < 0 || at.size >= lines) return null;
        // A key twice (or not base64url) is a store this code did not write.
        if (!at.add(bytes, o, chunkNumbers.length * OFFSET_SPAN + o)) return null;
        o = next;
      }
      chunkNumbers.push(chunk);
    }
    return at.size === lines ? { keys: at.parts(), chunkNumbers } : null;
  } catch {
    return null;
  } finally {
    db?.close();
  }
}

/**
 * The stored lines of a file scanned by scanPriceLines (none for a null scan). The lines' chunks are
 * read through a connection of its own and checked again as they are asked for, so a scan of the
 * same path made before (on another thread) is all it trusts. Never throws.
 */
export function openPriceLines(path: string, scanned: ScannedPriceLines | null): StoredPriceLines {
  if (scanned === null) return NO_STORED_PRICE_LINES;
  let db: Database.Database | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    return storedLines(db, keyIndexOf(scanned.keys), scanned.chunkNumbers);
  } catch {
    return closed(db);
  }
}

function closed(db: Database.Database | null): StoredPriceLines {
  db?.close();
  return NO_STORED_PRICE_LINES;
}

/** A chunk's bytes match its SHA-1 and are small enough for a place (chunk × OFFSET_SPAN + offset). */
function intact(sha1: unknown, bytes: unknown): bytes is Buffer {
  return Buffer.isBuffer(sha1) && Buffer.isBuffer(bytes) && bytes.length < OFFSET_SPAN && createHash('sha1').update(bytes).digest().equals(sha1);
}

/**
 * The lines by place, their chunks read back through `db` (the previous snapshot's price lines file:
 * it does not change) and checked again, the last CHUNKS_KEPT kept. A chunk that no longer reads
 * back whole makes its lines unknown (the compile parses them), never wrong.
 */
function storedLines(db: Database.Database, at: KeyIndex, chunkNumbers: number[]): StoredPriceLines {
  const read = db.prepare(`SELECT sha1, lines FROM ${TABLE} WHERE chunk = ?`).raw();
  const kept = new Map<number, { bytes: Buffer; view: DataView } | null>();
  // The chunk of the last line asked for: the next line is nearly always in it (one map look-up per
  // line was 0.85 s of a million-card incremental compile's profile).
  let lastNumber = -1;
  let last: { bytes: Buffer; view: DataView } | null = null;
  const chunkAt = (n: number) => {
    if (n === lastNumber) return last;
    let c = kept.get(n);
    if (c === undefined) {
      let row: [unknown, unknown] | undefined;
      try {
        row = read.get(chunkNumbers[n]) as [unknown, unknown] | undefined;
      } catch {
        row = undefined;
      }
      c = row && intact(row[0], row[1]) ? { bytes: row[1], view: new DataView(row[1].buffer, row[1].byteOffset, row[1].byteLength) } : null;
      kept.set(n, c);
      if (kept.size > CHUNKS_KEPT) kept.delete(kept.keys().next().value as number);
    }
    lastNumber = n;
    last = c;
    return c;
  };
  let open = true;
  return {
    size: at.size,
    get(key, bytes) {
      const place = at.get(key);
      if (place < 0 || !open) return undefined;
      const chunk = chunkAt(Math.floor(place / OFFSET_SPAN));
      const o = place % OFFSET_SPAN;
      const decoded = chunk && decodePriceLineAt(chunk.bytes, chunk.view, o);
      if (!decoded || decoded.key !== key || decoded.bytes !== bytes) return undefined;
      return decoded;
    },
    find(key, bytes, out) {
      const place = at.get(key);
      if (place < 0 || !open) return false;
      const chunk = chunkAt(Math.floor(place / OFFSET_SPAN));
      return chunk !== null && readLineAt(chunk.bytes, chunk.view, place % OFFSET_SPAN, out) && keyIs(out, key) && out.bytes === bytes;
    },
    close() {
      if (!open) return;
      open = false;
      kept.clear();
      last = null;
      db.close();
    },
  };
}

/**
 * Writes a compile's accepted lines as they are read: every CHUNK lines are encoded and inserted at
 * once, so the compile never holds the lines themselves (at a million cards they were about 290 MB
 * of the heap until the object index phase). Tables already in the file are replaced, not added to.
 * `db` is the connection to write through, inside the caller's transaction.
 */
export interface PriceLineWriter {
  add(line: StoredPriceLine): void;
  /** Stores a line of the previous store as it was (its bytes in KnownPriceLine.chunk): same line, same input. */
  addEncoded(line: Pick<KnownPriceLine, 'chunk' | 'start' | 'next'>): void;
  /** Inserts the last chunk and the line count; returns the count. */
  finish(): number;
}

export function createPriceLineWriter(db: Database.Database, version: string): PriceLineWriter {
  db.exec(`DROP TABLE IF EXISTS ${TABLE}; DROP TABLE IF EXISTS ${META}; ${CREATE_TABLES}`);
  const insert = db.prepare(`INSERT INTO ${TABLE} VALUES (?, ?, ?)`);
  // Encoded as they come: no line is kept (price-line-codec.ts says why).
  const chunk = createPriceLineChunk();
  let chunks = 0;
  let count = 0;
  let finished = false;
  const flush = () => {
    if (chunk.lines === 0) return;
    const bytes = chunk.bytes();
    insert.run(chunks++, createHash('sha1').update(bytes).digest(), bytes);
    chunk.clear();
  };
  return {
    add(line) {
      if (finished) throw new Error('price line writer: add after finish');
      chunk.add(line);
      count++;
      if (chunk.lines >= CHUNK) flush();
    },
    addEncoded(line) {
      if (finished) throw new Error('price line writer: add after finish');
      chunk.addEncoded(line.chunk, line.start, line.next);
      count++;
      if (chunk.lines >= CHUNK) flush();
    },
    finish() {
      if (!finished) {
        flush();
        db.prepare(`INSERT INTO ${META} VALUES (?, ?)`).run(version, count);
        finished = true;
      }
      return count;
    },
  };
}

/**
 * The compile's writer: into PRICE_LINES_FILE in the new snapshot's folder, through a temporary file
 * renamed into place by finish(), so a compile killed half-way leaves no file that looks complete.
 */
export function createPriceLineFile(dir: string, version: string): PriceLineWriter & { abort(): void } {
  const path = join(dir, PRICE_LINES_FILE);
  const temporary = `${path}.tmp`;
  rmSync(temporary, { force: true });
  const db = new Database(temporary);
  db.pragma(`page_size = ${PAGE_BYTES}`);
  // Renamed into place only once whole: no journal.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec('BEGIN');
  const writer = createPriceLineWriter(db, version);
  return {
    add: (line) => writer.add(line),
    addEncoded: (line) => writer.addEncoded(line),
    finish() {
      const count = writer.finish();
      if (db.open) {
        db.exec('COMMIT');
        db.close();
        renameSync(temporary, path);
      }
      return count;
    },
    abort() {
      if (db.open) db.close();
      rmSync(temporary, { force: true });
    },
  };
}

/** Writes (replaces) the stored lines of a price lines file, made when missing, in one transaction (tests, tools). */
export function writePriceLines(path: string, store: PriceLinesToStore): void {
  const db = new Database(path);
  try {
    db.pragma(`page_size = ${PAGE_BYTES}`);
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.transaction(() => {
      const writer = createPriceLineWriter(db, store.version);
      for (const line of store.lines) writer.add(line);
      writer.finish();
    })();
  } finally {
    db.close();
  }
}
