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
import { linkSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
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
const STORE_FORMAT = 'price-lines/7';

/** The file in a snapshot folder. */
export const PRICE_LINES_FILE = 'price-lines.sqlite';
/** The tables an object index written before the file existed holds (object-table.ts drops them). */
export const PRICE_LINE_TABLES = ['price_lines', 'price_lines_meta'] as const;
const [TABLE, META] = PRICE_LINE_TABLES;
/**
 * Which stored lines a snapshot's compile accepted, by snapshot (the folder the file is in): `lines`,
 * the lines the file held when that compile committed, `live` how many of them it accepted, and `bits`
 * which (bit i of byte i >> 3: the i-th line in stored order). The rest are lines an appending compile
 * superseded, or appended by a later compile (appendToPriceLineFile). Per snapshot because appending
 * compiles share one file: the previous snapshot's own row must stay what it was when a compile that
 * appended is killed before it publishes.
 */
const LIVE = 'price_lines_live';
const CREATE_TABLES = `CREATE TABLE ${META} (version TEXT NOT NULL, lines INTEGER NOT NULL);
  CREATE TABLE ${LIVE} (snapshot TEXT PRIMARY KEY, lines INTEGER NOT NULL, live INTEGER NOT NULL, bits BLOB NOT NULL);
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
   * `get` without an object, for live lines only: the stored line with this key and length read into
   * `out` (its chunk, where it is, its fields, its number); false when there is none or the compile
   * that wrote the store did not accept it (a superseded line of an appended store: its entity's
   * objects were not made from it). For a caller that takes the fields straight into its columns and
   * re-uses the entity's objects in place (entity-phase.ts `take`).
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
  /** Each line's number (its ordinal in stored order) by key. */
  keys: KeyIndexParts;
  chunkNumbers: number[];
  /** Each line's place by its number: chunk index × OFFSET_SPAN + byte offset in the chunk. */
  placeOf: Float64Array;
  /** The lines stored, and how many of them the compile of the file's snapshot accepted (`liveBits`: bits past its end are not). */
  lines: number;
  live: number;
  liveBits: Uint8Array;
}

/** The scan of a price lines file (readPriceLines), or null for a file that cannot be trusted. Never throws. */
export function scanPriceLines(path: string, version: string): ScannedPriceLines | null {
  let db: Database.Database | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (?, ?, ?)").pluck().all(TABLE, META, LIVE);
    if (tables.length !== 3) return null;
    const meta = db.prepare(`SELECT version, lines FROM ${META}`).raw().all() as [unknown, unknown][];
    if (meta.length !== 1 || meta[0][0] !== version) return null;
    // Only each line's key and place are read here (its lengths say where the next one starts): a
    // chunk is read again from the file, checked and decoded when one of its lines is asked for, and
    // a line that does not decode then is unknown, parsed as a new one (at a million cards the
    // decoded lines were about 650 bytes each for the whole entity phase, the encoded chunks held in
    // memory about 220 MB, and decoding every line here too cost seconds).
    const lines = meta[0][1];
    if (typeof lines !== 'number' || !Number.isInteger(lines) || lines < 0 || lines > MAX_LINES) return null;
    // The lines the compile of the snapshot whose folder holds the file accepted.
    const own = db.prepare(`SELECT lines, live, bits FROM ${LIVE} WHERE snapshot = ?`).raw().get(snapshotOf(path)) as [unknown, unknown, unknown] | undefined;
    if (own === undefined) return null;
    const [ownLines, live, bits] = own;
    if (typeof ownLines !== 'number' || !Number.isInteger(ownLines) || ownLines < 0 || ownLines > lines) return null;
    if (typeof live !== 'number' || !Number.isInteger(live) || live < 0 || live > ownLines) return null;
    if (!Buffer.isBuffer(bits) || bits.length !== bitBytes(ownLines) || countBits(bits) !== live || (ownLines % 8 !== 0 && bits[bits.length - 1] >> (ownLines % 8) !== 0)) return null;
    // Copied: a buffer of its own, to hand over to another thread.
    const liveBits = new Uint8Array(bits);
    const placeOf = new Float64Array(lines);
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
        placeOf[at.size] = chunkNumbers.length * OFFSET_SPAN + o;
        if (!at.add(bytes, o, at.size)) return null;
        o = next;
      }
      chunkNumbers.push(chunk);
    }
    return at.size === lines ? { keys: at.parts(), chunkNumbers, placeOf, lines, live, liveBits } : null;
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
    return storedLines(db, keyIndexOf(scanned.keys), scanned);
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
function storedLines(db: Database.Database, at: KeyIndex, { chunkNumbers, placeOf, liveBits }: ScannedPriceLines): StoredPriceLines {
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
      const ordinal = at.get(key);
      if (ordinal < 0 || !open) return undefined;
      const place = placeOf[ordinal];
      const chunk = chunkAt(Math.floor(place / OFFSET_SPAN));
      const o = place % OFFSET_SPAN;
      const decoded = chunk && decodePriceLineAt(chunk.bytes, chunk.view, o);
      if (!decoded || decoded.key !== key || decoded.bytes !== bytes) return undefined;
      decoded.ordinal = ordinal;
      decoded.live = bitAt(liveBits, ordinal);
      return decoded;
    },
    find(key, bytes, out) {
      const ordinal = at.get(key);
      if (ordinal < 0 || !open || !bitAt(liveBits, ordinal)) return false;
      const place = placeOf[ordinal];
      const chunk = chunkAt(Math.floor(place / OFFSET_SPAN));
      if (chunk === null || !readLineAt(chunk.bytes, chunk.view, place % OFFSET_SPAN, out) || !keyIs(out, key) || out.bytes !== bytes) return false;
      out.ordinal = ordinal;
      return true;
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
  /**
   * Stores an accepted line. `known`: the store read for this compile holds a line with its key
   * already (its entity's input or slot changed), which an appending writer cannot replace.
   */
  add(line: StoredPriceLine, known?: boolean): void;
  /** Stores a line of the previous store as it was (its bytes in KnownPriceLine.chunk): same line, same input. */
  addEncoded(line: Pick<KnownPriceLine, 'chunk' | 'start' | 'next' | 'ordinal'>): void;
  /** Inserts the last chunk and the line count; returns the count of lines accepted (add and addEncoded calls). */
  finish(): number;
}

export function createPriceLineWriter(db: Database.Database, version: string, snapshot: string): PriceLineWriter {
  db.exec(`DROP TABLE IF EXISTS ${TABLE}; DROP TABLE IF EXISTS ${META}; DROP TABLE IF EXISTS ${LIVE}; ${CREATE_TABLES}`);
  const chunks = chunkInserter(db, 0);
  let count = 0;
  let finished = false;
  return {
    add(line) {
      if (finished) throw new Error('price line writer: add after finish');
      chunks.chunk.add(line);
      count++;
      chunks.added();
    },
    addEncoded(line) {
      if (finished) throw new Error('price line writer: add after finish');
      chunks.chunk.addEncoded(line.chunk, line.start, line.next);
      count++;
      chunks.added();
    },
    finish() {
      if (!finished) {
        chunks.flush();
        db.prepare(`INSERT INTO ${META} VALUES (?, ?)`).run(version, count);
        db.prepare(`INSERT INTO ${LIVE} VALUES (?, ?, ?, ?)`).run(snapshot, count, count, allBits(count));
        finished = true;
      }
      return count;
    },
  };
}

/** Lines encoded as they come into one chunk, inserted as row `first`, `first + 1`, ... every CHUNK lines. */
function chunkInserter(db: Database.Database, first: number) {
  const insert = db.prepare(`INSERT INTO ${TABLE} VALUES (?, ?, ?)`);
  // Encoded as they come: no line is kept (price-line-codec.ts says why).
  const chunk = createPriceLineChunk();
  let next = first;
  const flush = () => {
    if (chunk.lines === 0) return;
    const bytes = chunk.bytes();
    insert.run(next++, createHash('sha1').update(bytes).digest(), bytes);
    chunk.clear();
  };
  return {
    chunk,
    /** Call after each line put into `chunk`. */
    added: () => {
      if (chunk.lines >= CHUNK) flush();
    },
    flush,
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
  const writer = createPriceLineWriter(db, version, basename(dir));
  return {
    add: (line, known) => writer.add(line, known),
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

/**
 * A share of superseded lines above which an appending compile is not used: the file is written
 * afresh (at a 1% daily change, about every twentieth compile), so the store, its scan and its key
 * index stay within a fifth of the catalog's lines.
 */
const STALE_SHARE = 0.2;

/**
 * The compile's writer when the catalog files are the previous snapshot's (only prices changed): the
 * previous snapshot's file, hard-linked into the new snapshot's folder, with the lines it lacks
 * appended in new chunks; the lines it has are not written again (at a million cards, re-encoding and
 * inserting the 990,000 unchanged lines' 250 MB was about 2 s of the main thread: docs/benchmarks.md).
 *
 * Why appending is sound: a stored line's facts are a function of its bytes, and its slot and input
 * token of the catalog files and code it was accepted under, which are this compile's (the version,
 * and `sameCatalog`, which the caller checks; a compile of other catalog files writes afresh). So a
 * line the file keeps from an earlier compile of the same catalog, whose entity has another line
 * now, is still right for its own bytes: it only costs its place. Each snapshot's row of LIVE says
 * which lines its compile accepted (only those re-use their entity's objects in place); past
 * STALE_SHARE lines not live this returns null and the caller writes afresh. A line whose key the
 * file has but must be stored again (`add(line, true)`: its input or slot differ, which these catalog
 * files should not allow) cannot be replaced in place: the file is then finished under no version, so
 * the next compile parses every line.
 *
 * The previous snapshot shares the file: the appended lines are as right for it (same catalog files,
 * same code), and its own row of LIVE stays as it was, so a compile killed after its commit, before
 * it published, leaves the previous snapshot's store whole (those lines are then simply not live).
 * The appended chunks are written in one transaction whose journal is in memory: a compile that
 * fails before finish() leaves the file as it was (abort() rolls back and removes the link). A
 * small change writes nothing into the file before the commit, so only a kill during the commit can
 * tear it; a large one (more than the page cache of 64 MB) can be torn by a kill before it too, and
 * once pages spill the previous store's chunks can no longer be read (the writer holds the file): the
 * rest of its lines are parsed, correct but slower. A torn file is turned by the next scan's checks
 * (each chunk's SHA-1, the line count, the live count against its bits) into a store not used: that
 * compile parses every line once. Null, and nothing changed, when `scanned` is null, mostly stale, or
 * the file cannot be linked or opened for writing.
 */
export function appendToPriceLineFile(dir: string, previousPath: string, version: string, scanned: ScannedPriceLines | null): (PriceLineWriter & { abort(): void }) | null {
  if (scanned === null || scanned.lines - scanned.live > scanned.lines * STALE_SHARE) return null;
  const path = join(dir, PRICE_LINES_FILE);
  let db: Database.Database | null = null;
  try {
    linkSync(previousPath, path);
    db = new Database(path, { fileMustExist: true });
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
    // Enough that a small change writes nothing before it commits (a 1% change appends one 2.5 MB
    // chunk at a million cards), bounded so a change of every line (250 MB appended) does not hold all
    // its pages in memory: those spill into the file before the commit, and a kill then can tear it.
    db.pragma('cache_size = -65536');
    db.exec('BEGIN IMMEDIATE');
    const meta = db.prepare(`SELECT version, lines FROM ${META}`).raw().all() as [unknown, unknown][];
    // The file the scan read (only a compile, which holds the root's lock, writes it).
    if (meta.length !== 1 || meta[0][0] !== version || meta[0][1] !== scanned.lines) throw new Error('price lines: not the file scanned');
  } catch {
    if (db?.open) db.close();
    rmSync(path, { force: true });
    return null;
  }
  const file = db;
  const chunks = chunkInserter(file, (scanned.chunkNumbers.at(-1) ?? -1) + 1);
  let lines = scanned.lines;
  let live = 0;
  let untrusted = false;
  // The lines this compile accepts, by number (appended ones after the stored ones).
  let bits = new Uint8Array(bitBytes(lines + 1024));
  const mark = (ordinal: number) => {
    if (ordinal < 0 || ordinal >= lines) {
      untrusted = true;
      return;
    }
    if (ordinal >> 3 >= bits.length) {
      const grown = new Uint8Array(bits.length * 2);
      grown.set(bits);
      bits = grown;
    }
    if ((bits[ordinal >> 3] & (1 << (ordinal & 7))) === 0) live++;
    bits[ordinal >> 3] |= 1 << (ordinal & 7);
  };
  let finished = false;
  return {
    add(line, known) {
      if (finished) throw new Error('price line writer: add after finish');
      if (known) {
        untrusted = true;
        return;
      }
      chunks.chunk.add(line);
      lines++;
      mark(lines - 1);
      chunks.added();
    },
    addEncoded(line) {
      if (finished) throw new Error('price line writer: add after finish');
      mark(line.ordinal);
    },
    finish() {
      if (!finished) {
        chunks.flush();
        const liveBits = Buffer.from(bits.buffer, 0, bitBytes(lines));
        file.prepare(`UPDATE ${META} SET version = ?, lines = ?`).run(untrusted ? '' : version, lines);
        // This snapshot's row beside the previous one's (still its own, should this compile not
        // publish); any other is a compile's that was stopped before it published.
        const snapshot = basename(dir);
        file.prepare(`DELETE FROM ${LIVE} WHERE snapshot NOT IN (?, ?)`).run(snapshotOf(previousPath), snapshot);
        file.prepare(`INSERT OR REPLACE INTO ${LIVE} VALUES (?, ?, ?, ?)`).run(snapshot, lines, live, liveBits);
        file.exec('COMMIT');
        file.close();
        finished = true;
      }
      return live;
    },
    abort() {
      if (file.open) {
        if (file.inTransaction) file.exec('ROLLBACK');
        file.close();
      }
      if (!finished) rmSync(path, { force: true });
    },
  };
}

/** Bytes of a bit set of `n` bits. */
function bitBytes(n: number): number {
  return (n + 7) >> 3;
}

/** Bit i of `bits`; false past its end. */
function bitAt(bits: Uint8Array, i: number): boolean {
  return i >> 3 < bits.length && (bits[i >> 3] & (1 << (i & 7))) !== 0;
}

/** The snapshot a price lines file belongs to: the name of the folder it is in. */
function snapshotOf(path: string): string {
  return basename(dirname(path));
}

/** The bits set in `bits`. */
function countBits(bits: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < bits.length; i++) for (let b = bits[i]; b !== 0; b &= b - 1) n++;
  return n;
}

/** A bit set of `n` bits, all set. */
function allBits(n: number): Buffer {
  const bits = Buffer.alloc(bitBytes(n), 0xff);
  if (n % 8 !== 0) bits[bits.length - 1] = (1 << (n % 8)) - 1;
  return bits;
}

/** Writes (replaces) the stored lines of a price lines file, made when missing, in one transaction (tests, tools). */
export function writePriceLines(path: string, store: PriceLinesToStore): void {
  const db = new Database(path);
  try {
    db.pragma(`page_size = ${PAGE_BYTES}`);
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.transaction(() => {
      const writer = createPriceLineWriter(db, store.version, snapshotOf(path));
      for (const line of store.lines) writer.add(line);
      writer.finish();
    })();
  } finally {
    db.close();
  }
}
