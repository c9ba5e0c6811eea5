/**
 * Everything the new snapshot holds, key by key, and how each key compares with the previous
 * snapshot, kept in the new snapshot's object index (objects.sqlite) as it is built, not in the heap
 * (issue 17: at a million cards the table is 5.3 million objects, about 1 GiB of heap as columns,
 * and the previous snapshot's as much again). The file is in the unpublished snapshot folder until
 * publish, so nothing half-built is ever seen; a failed compile removes the folder with it.
 *
 * Three ways to start, by what the previous snapshot is:
 *   - none (`full`): empty tables; every row is inserted as its object is written.
 *   - packed (`copy`): the file starts as a copy of the previous objects.sqlite. An unchanged object
 *     needs no work at all (its row is already there, same pack and offset); a written object's row
 *     is inserted or replaced; a key of the previous snapshot the compile does not put again is
 *     deleted (`removeStale`, and the entities' in `documents`). The previous snapshot's inputs are
 *     the copy's rows of keys not yet written, so they are looked up in the same file. Its pack
 *     numbers are kept: new packs are numbered after them, a pack no row uses any more is dropped
 *     from the list (gaps in `seq`; readers join on it). That bookkeeping is pack-ledger.ts.
 *   - per-URL (`perUrl`, a root written before packs): empty tables, and the previous manifest's
 *     entries loaded into a scratch table (`prev`, a file beside the index removed at `close`); its
 *     unchanged objects are copied into the new pack, so every key is inserted.
 *
 * Which keys changed is recorded as they are written (`touched`, touched-keys.ts: a temporary table of the keys
 * written or re-used one by one, with their change), so the counts and the change list never scan
 * the unchanged rows. Re-used cards and figures are only counted; an aggregate re-used is recorded,
 * because the stale ones (a page no longer rendered) are found as the rows of the aggregate key
 * ranges that are not in `touched`, which is only looked for when the row count says some exist.
 *
 * Writes are buffered and inserted BATCH rows per statement, in one transaction (journal off: the
 * file is thrown away, not rolled back, when the compile fails).
 *
 * @example
 *   const table = openObjectTable(join(dir, 'objects.sqlite'), previous, out);
 *   table.add({ key: 'v1/catalog/summary.json.gz', size: 357, sha256: '29…', input: 'x', at: out.write(bytes) });
 *   table.counts()  // { new: 1, changed: 0, unchanged: 0, removed: 0 }
 */
import Database from 'better-sqlite3';
import { hash as oneShotHash } from 'node:crypto';
import { constants, copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangeEntry, PackRef } from '../../snapshots/manifest.js';
import { CatalogError } from '../../snapshots/errors.js';
import { createObjectIndexTables, writeObjectIndexVersion } from '../../snapshots/packs/object-index.js';
import { PRICE_LINE_TABLES } from './price-line-store.js';
import type { ObjectLoc, PackOutput } from './pack-output.js';
import { PackLedger } from './pack-ledger.js';
import { manifestObjects, type PreviousSnapshot } from './previous.js';
import { CARDS, DOCUMENT_RANGES, FIGURES, type DocumentName } from '../bulk/document-ranges.js';
import { BATCH, duplicateKeyError, marks, padded, rowMarks } from './sql-batch.js';
import { CHANGED, NEW, REMOVED, TouchedKeys, UNCHANGED } from './touched-keys.js';

/** An object written by this compile. */
export interface NewObject {
  key: string;
  size: number;
  /** SHA-256 (hex) of the stored bytes. */
  sha256: string;
  input: string | null;
  at: ObjectLoc;
}

/** A row of the table read back (bulk files): the object's key, size and SHA-256, and where its bytes are. */
export interface StoredObject {
  key: string;
  size: number;
  /** SHA-256 of the stored bytes (32 bytes). */
  digest: Buffer;
  /** SHA-256 of the pack that holds the object (sealed). */
  pack: string;
  offset: number;
}

export interface ChangeCounts {
  new: number;
  changed: number;
  unchanged: number;
  removed: number;
}

type Mode = 'full' | 'copy' | 'perUrl';
const OBJECT_COLUMNS = '(key, pack, offset, length, sha256, input)';

/** The entities' and document bulk files' key ranges (their stale rows are found from the catalog, `documents`). */
export { DOCUMENT_RANGES, type DocumentName } from '../bulk/document-ranges.js';

/** The row count, so the next compile does not count the rows (a scan of the table: 0.6 s at 100,000 cards). */
const ROWS_META = 'object_rows';
/** The compiler code the index was written by (sameCompilerCode). */
const COMPILER_META = 'compiler_code';

export class ObjectTable {
  private readonly db: Database.Database;
  private readonly mode: Mode;
  /** Schema holding the previous snapshot's rows: the copy itself, or the attached per-URL scratch table. */
  private readonly prevSchema: string;
  private readonly scratch: string | null;
  private readonly statements = new Map<string, Database.Statement>();
  private pending: NewObject[] = [];
  /** What this compile wrote or re-used, with each key's change (null in a full compile: every key is new). */
  private readonly touched: TouchedKeys | null = null;
  /** The packs the index lists, their numbers and live bytes (pack-ledger.ts). */
  private readonly ledger: PackLedger;
  private rows = 0;
  /** Keys put into the new snapshot, written or re-used. */
  private put = 0;
  private readonly counted = { new: 0, changed: 0, removed: 0 };
  private compilerCode: string | null = null;
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly previous: PreviousSnapshot | null,
    private readonly out: PackOutput,
    copied: boolean,
  ) {
    this.mode = previous === null ? 'full' : previous.packed ? 'copy' : 'perUrl';
    // A reflink where the filesystem has them (prefetch.ts), else an ordinary copy.
    if (this.mode === 'copy' && !copied) copyFileSync(previous!.index, path, constants.COPYFILE_FICLONE);
    this.db = new Database(path);
    this.scratch = this.mode === 'perUrl' ? `${path}.previous` : null;
    this.prevSchema = this.mode === 'perUrl' ? 'prev' : 'main';
    try {
      // The file is published only once complete, and thrown away when the compile fails: no journal.
      this.db.pragma('journal_mode = OFF');
      this.db.pragma('synchronous = OFF');
      // Bounded, outside the JS heap: the B-tree pages the lookups and inserts touch.
      this.db.pragma('cache_size = -65536');
      if (this.mode !== 'copy') createObjectIndexTables(this.db);
      else dropStoredPriceLines(this.db);
      if (this.mode !== 'full') this.touched = new TouchedKeys(this.db);
      if (this.scratch !== null) this.loadManifest(this.scratch, previous!.index);
      this.ledger = this.mode === 'copy' ? PackLedger.load(this.db) : new PackLedger();
      if (this.mode === 'copy') this.rows = this.loadRowCount();
      this.db.exec('BEGIN');
    } catch (err) {
      this.close();
      throw err;
    }
  }

  get incremental(): boolean {
    return this.mode !== 'full';
  }

  /** True when the table is a copy of the previous packed index: a re-used object's row is already there. */
  get reusesInPlace(): boolean {
    return this.mode === 'copy';
  }

  /**
   * Records the hash of the compiler code this index is written by (kept in its meta rows); true
   * when the previous snapshot's index, which this one copies, was written by the same code.
   */
  sameCompilerCode(code: string): boolean {
    this.compilerCode = code;
    if (this.mode !== 'copy') return false;
    return this.db.prepare('SELECT value FROM object_index_meta WHERE key = ?').pluck().get(COMPILER_META) === code;
  }

  /** Objects in the new snapshot (final once `removeStale` has run). */
  get size(): number {
    this.flush();
    return this.rows;
  }

  /**
   * The previous snapshot's input of each of `keys` that it has, in statements of BATCH keys. Only
   * valid for keys this compile has not written yet (in a copy, a written row replaces the previous one).
   */
  previousInputs(keys: readonly string[]): Map<string, string | null> {
    const found = new Map<string, string | null>();
    if (this.mode === 'full') return found;
    const stmt = this.stmt(`prevInputs`, () => `SELECT key, input FROM ${this.prevSchema}.objects WHERE key IN (${marks(BATCH)})`).raw();
    for (let i = 0; i < keys.length; i += BATCH) {
      for (const [key, input] of stmt.all(padded(keys, i)) as [string, string | null][]) found.set(key, input);
    }
    return found;
  }

  /**
   * The keys of an entity (its objects, in the order cardKeys gives them) whose previous inputs decide
   * its re-use. A packed snapshot's entity objects are always written or re-used together, with one
   * input, so the first answers for all: a fifth of the look-ups for a card (a row missing beside it
   * would fail the row count check, removeStale). A per-URL snapshot is checked key by key: its
   * objects are copied one by one (`reuse`), so each must be there.
   */
  entityLookupKeys(keys: readonly string[]): readonly string[] {
    return this.mode === 'copy' ? keys.slice(0, 1) : keys;
  }

  /** The previous snapshot's input of `key`; undefined when it has no such object (see previousInputs). */
  previousInput(key: string): string | null | undefined {
    if (this.mode === 'full') return undefined;
    const row = this.stmt('prevInput', () => `SELECT input FROM ${this.prevSchema}.objects WHERE key = ?`).raw().get(key) as [string | null] | undefined;
    return row?.[0];
  }

  /**
   * The previous snapshot's input of `key` and where its stored bytes are (a sealed pack of the
   * root), for a document patched from them (document-sink.ts `putPages`); undefined when it has no
   * such object, and always in a compile that does not copy a packed index. Only valid for keys this
   * compile has not written yet.
   */
  previousPlace(key: string): { input: string | null; pack: string; offset: number; length: number } | undefined {
    if (this.mode !== 'copy') return undefined;
    const row = this.stmt('prevPlace', () => 'SELECT o.input, p.sha256, o.offset, o.length FROM objects o JOIN packs p ON p.seq = o.pack WHERE o.key = ?')
      .raw()
      .get(key) as [string | null, string, number, number] | undefined;
    return row && { input: row[0], pack: row[1], offset: row[2], length: row[3] };
  }

  /**
   * In a copy, keeps as they are the previous snapshot's objects in key range [from, to) that this
   * compile has not written or re-used, recorded in one statement, when there are exactly `expected`
   * of them; otherwise keeps nothing and returns false. For documents the caller knows are the
   * previous ones (aggregates.ts: an unchanged catalog's oracle concepts none of whose printings
   * changed): 175,000 of them at a million cards, where one look-up each took about 2 s.
   */
  keepRange(from: string, to: string, expected: number): boolean {
    if (this.mode !== 'copy') return false;
    this.flush();
    if (!this.touched!.recordRest(from, to, expected)) return false;
    this.put += expected;
    return true;
  }

  /** In a copy (reusesInPlace), keeps an entity's `count` objects as they are: their rows are already there, only counted. */
  reuseInPlace(count: number): void {
    if (this.mode !== 'copy') throw new CatalogError('internal', 'objects are kept in place only in a copy of the previous index');
    this.put += count;
  }

  /**
   * Keeps the previous snapshot's objects at `keys` as they are. In a copy their rows are already
   * there: an entity's are only counted, an aggregate's recorded (its stale siblings are found by
   * what was not). From a per-URL snapshot the bytes are copied into the new pack.
   */
  reuse(keys: readonly string[], kind: 'entity' | 'aggregate'): void {
    if (this.mode === 'full') throw new CatalogError('internal', `nothing to re-use ${keys[0]} from: there is no previous snapshot`);
    if (this.mode === 'copy') {
      this.put += keys.length;
      if (kind === 'aggregate') this.touched!.reused(keys);
      return;
    }
    const row = this.stmt('prevRow', () => 'SELECT length, sha256, input FROM prev.objects WHERE key = ?').raw();
    for (const key of keys) {
      const [size, sha, input] = row.get(key) as [number, Buffer, string | null];
      this.add({ key, size, sha256: sha.toString('hex'), input, at: this.out.copyFile(join(this.previous!.dir, key)) });
    }
  }

  /** Adds (or, in a copy, replaces) the row of an object written by this compile. */
  add(o: NewObject): void {
    this.pending.push(o);
    if (this.pending.length >= BATCH) this.flushWritten();
  }

  /** Records the packs sealed so far; rows of this compile are read back (bulk files) only from sealed packs. */
  seal(): void {
    this.flush();
    for (const p of this.out.seal()) this.ledger.register(this.db, p);
  }

  /**
   * The rows of one document bulk file's objects (`cards`: every card's 30d object; `figures`;
   * `oracle`) in key order, from sealed packs. In a copy, the rows of a card or figure the catalog
   * no longer has (`live(id)` false) are skipped here and deleted once the caller has read them all.
   */
  *documents(name: DocumentName, live: (id: string) => boolean = () => true): Generator<StoredObject> {
    this.flush();
    const range = DOCUMENT_RANGES[name];
    const rows = this.stmt(`docs:${name}`, () => `SELECT key, pack, offset, length, sha256 FROM objects WHERE key >= ? AND key < ? AND ${range.where} ORDER BY key`).raw();
    const gone: string[] = [];
    for (const [key, pack, offset, length, sha] of rows.iterate(range.from, range.to) as Iterable<[string, number, number, number, Buffer]>) {
      if (name !== 'oracle' && !live(entityIdOf(key, range.from))) {
        gone.push(key);
        continue;
      }
      const packSha = this.ledger.sha256Of(pack);
      if (packSha === undefined) throw new CatalogError('internal', `${key} is in pack number ${pack}, which is not sealed`);
      yield { key, size: length, digest: sha, pack: packSha, offset };
    }
    if (gone.length === 0) return;
    if (this.mode !== 'copy') throw new CatalogError('internal', `objects of entities the catalog does not have: ${gone.slice(0, 3).join(', ')}`);
    for (const key of gone) this.deleteRange(key, name === 'cards' ? key.slice(0, key.lastIndexOf('/') + 1) : key);
  }

  /**
   * In a copy, what this compile changed in one document bulk file's range (after `documents` has
   * read it, so the rows of entities the catalog dropped are counted): each key written with other
   * bytes, with its previous SHA-256, in key order; or null when a key was added or removed there (or
   * the table is not a copy), and the previous keys differ from the new ones.
   */
  changedDocuments(name: DocumentName): { key: string; before: Buffer }[] | null {
    if (this.mode !== 'copy') return null;
    this.flush();
    const changed: { key: string; before: Buffer }[] = [];
    for (const [key, change, before] of this.touched!.changedIn(DOCUMENT_RANGES[name])) {
      if (change !== CHANGED || before === null) return null;
      changed.push({ key, before });
    }
    return changed;
  }

  /**
   * In a copy, the objects of one document bulk file's range this compile wrote with other bytes, in
   * key order, with where they are now (sealed packs); null when a key of the range was added or
   * removed, or the table is not a copy. The bulk thread takes the others from the previous index
   * (patch-job.ts): only valid when no entity of the range is gone (`documents` deletes those).
   */
  changedObjects(name: DocumentName): StoredObject[] | null {
    if (this.mode !== 'copy') return null;
    this.flush();
    const range = DOCUMENT_RANGES[name];
    const changed: StoredObject[] = [];
    for (const [key, change, pack, offset, length, digest] of this.touched!.changedRowsIn(range)) {
      if (change !== CHANGED) return null;
      const packSha = this.ledger.sha256Of(pack);
      if (packSha === undefined) throw new CatalogError('internal', `${key} is in pack number ${pack}, which is not sealed`);
      changed.push({ key, size: length, digest, pack: packSha, offset });
    }
    // A removed key has no row to join: counted apart.
    return this.touched!.removedIn(range) === 0 ? changed : null;
  }

  /** The previous snapshot's objects of one document bulk file, [key, { sha256 }] in key order. */
  *previousDocuments(name: DocumentName): Generator<[string, { sha256: string }]> {
    if (this.mode === 'full') return;
    const range = DOCUMENT_RANGES[name];
    const sql = (schema: string) => `SELECT key, sha256 FROM ${schema}.objects WHERE key >= ? AND key < ? AND ${range.where} ORDER BY key`;
    // A copy's own rows are already this compile's: read the previous file, read-only.
    const db = this.mode === 'copy' ? new Database(this.previous!.index, { readonly: true, fileMustExist: true }) : this.db;
    try {
      for (const [key, sha] of db.prepare(sql(this.mode === 'copy' ? 'main' : 'prev')).raw().iterate(range.from, range.to) as Iterable<[string, Buffer]>) {
        yield [key, { sha256: sha.toString('hex') }];
      }
    } finally {
      if (db !== this.db) db.close();
    }
  }

  /**
   * Deletes the previous snapshot's aggregate objects this compile did not put again (a copy), or
   * records the per-URL snapshot's keys that are gone; then the row count must be the keys put.
   */
  removeStale(): void {
    this.flush();
    if (this.mode === 'perUrl') {
      this.counted.removed += this.touched!.recordGoneFromPrevious();
    } else if (this.mode === 'copy' && this.rows !== this.put) {
      // Outside the cards' range (94% of the keys) and without the figures (entities, `documents`):
      // the aggregates, each of which this compile recorded in `touched` when it wrote or re-used it.
      const stale = this.touched!.untouched(
        `(key < '${CARDS.from}' OR key >= '${CARDS.to}') AND NOT (key >= '${FIGURES.from}' AND key < '${FIGURES.to}' AND ${FIGURES.where})`,
      );
      for (const key of stale) this.deleteRange(key, key);
    }
    if (this.rows !== this.put) {
      throw new CatalogError('internal', `the object index holds ${this.rows} objects, the compile put ${this.put}: stale rows left`);
    }
  }

  counts(): ChangeCounts {
    this.flush();
    const { new: added, changed, removed } = this.counted;
    return { new: added, changed, unchanged: this.rows - added - changed, removed };
  }

  /** Every key that is not unchanged, in key order (read from the table each time it is iterated). */
  changes(): Iterable<ChangeEntry> {
    this.flush();
    if (this.touched !== null) return this.touched.changes();
    const db = this.db;
    return {
      *[Symbol.iterator]() {
        for (const key of db.prepare('SELECT key FROM objects ORDER BY key').pluck().iterate() as Iterable<string>) yield { key, change: 'new' };
      },
    };
  }

  /**
   * Previous packs of which less than `share` of the bytes are still used, with their live objects
   * by offset; `moved` gives each object's new location (object-index-phase.ts).
   */
  sparsePacks(share: number): { seq: number; sha256: string; objects: { key: string; offset: number; length: number }[] }[] {
    this.flush();
    const sparse = this.ledger.sparse(share);
    if (sparse.length === 0) return [];
    const rows = this.db.prepare(`SELECT pack, key, offset, length FROM objects WHERE pack IN (${marks(sparse.length)}) ORDER BY pack, offset`).raw().all(sparse) as [number, string, number, number][];
    const bySeq = new Map<number, { key: string; offset: number; length: number }[]>(sparse.map((s) => [s, []]));
    for (const [pack, key, offset, length] of rows) bySeq.get(pack)!.push({ key, offset, length });
    return sparse.map((seq) => ({ seq, sha256: this.ledger.sha256Of(seq)!, objects: bySeq.get(seq)! }));
  }

  /** Moves an object of pack number `from` to a location this compile wrote (a sparse pack's live object copied). */
  relocate(key: string, from: number, length: number, at: ObjectLoc): void {
    const seq = this.ledger.seqOf(at.pack);
    this.stmt('relocate', () => 'UPDATE objects SET pack = ?, offset = ? WHERE key = ?').run(seq, at.offset, key);
    this.ledger.addLive(from, -length);
    this.ledger.addLive(seq, length);
  }

  /**
   * Seals the last pack, lists every pack the rows use (a previous pack no row uses any more is
   * dropped), records the version and each pack's live bytes, and commits. Returns the packs.
   */
  finish(): PackRef[] {
    this.seal();
    const packs = this.ledger.dropUnused(this.db);
    // The meta rows in this order: a page's bytes depend on it. A compile that writes its objects in a
    // fixed order (inline, or a catalog too small to fill the render thread's queue, like the OpenAPI
    // example's) gives the same file every time, and the examples pin its SHA-256 through the manifest.
    writeObjectIndexVersion(this.db);
    this.ledger.writeLiveBytes(this.db);
    this.db.prepare('INSERT OR REPLACE INTO object_index_meta (key, value) VALUES (?, ?)').run(ROWS_META, String(this.rows));
    if (this.compilerCode !== null) this.db.prepare('INSERT OR REPLACE INTO object_index_meta (key, value) VALUES (?, ?)').run(COMPILER_META, this.compilerCode);
    this.db.exec('COMMIT');
    this.dropScratch();
    return packs;
  }

  /** Closes the file (after publish: the change list is read from it) and removes the per-URL scratch table. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.db.open) this.db.close();
    if (this.scratch !== null) rmSync(this.scratch, { force: true });
  }

  /** The per-URL scratch table is not part of the snapshot: gone before publish. */
  private dropScratch(): void {
    if (this.scratch === null) return;
    this.db.exec('DETACH DATABASE prev');
    rmSync(this.scratch, { force: true });
  }

  private flush(): void {
    this.flushWritten();
    this.touched?.flush();
  }

  private flushWritten(): void {
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    const shas = batch.map((o) => Buffer.from(o.sha256, 'hex'));
    const old = new Map<string, [number | null, number, Buffer]>();
    if (this.mode !== 'full') {
      const stmt = this.stmt('prevRows', () => `SELECT key, ${this.mode === 'copy' ? 'pack' : 'NULL'}, length, sha256 FROM ${this.prevSchema}.objects WHERE key IN (${marks(BATCH)})`).raw();
      for (const [key, pack, length, sha] of stmt.all(padded(batch.map((o) => o.key), 0)) as [string, number | null, number, Buffer][]) old.set(key, [pack, length, sha]);
      this.touched!.record(batch.map((o, i) => {
        const before = old.get(o.key);
        const change = before === undefined ? NEW : before[2].equals(shas[i]) ? UNCHANGED : CHANGED;
        if (change === NEW) this.counted.new++;
        else if (change === CHANGED) this.counted.changed++;
        return [o.key, change, change === CHANGED ? before![2] : null];
      }));
    } else {
      this.counted.new += batch.length;
    }
    const upsert = this.mode === 'copy'
      ? ' ON CONFLICT(key) DO UPDATE SET pack = excluded.pack, offset = excluded.offset, length = excluded.length, sha256 = excluded.sha256, input = excluded.input'
      : '';
    const values: unknown[] = [];
    batch.forEach((o, i) => values.push(o.key, this.ledger.seqOf(o.at.pack), o.at.offset, o.size, shas[i], o.input));
    try {
      if (batch.length === BATCH) this.stmt('insertBatch', () => `INSERT INTO objects ${OBJECT_COLUMNS} VALUES ${rowMarks(BATCH)}${upsert}`).run(values);
      else {
        const one = this.stmt('insertOne', () => `INSERT INTO objects ${OBJECT_COLUMNS} VALUES ${rowMarks(1)}${upsert}`);
        for (let i = 0; i < values.length; i += 6) one.run(values.slice(i, i + 6));
      }
    } catch (err) {
      throw duplicateKeyError(err, batch.map((o) => o.key));
    }
    this.put += batch.length;
    for (const o of batch) {
      const before = old.get(o.key);
      if (before === undefined || this.mode !== 'copy') this.rows++;
      else this.ledger.addLive(before[0]!, -before[1]);
      this.ledger.addLive(this.ledger.seqOf(o.at.pack), o.size);
    }
  }

  /** Deletes the rows from `key` through the keys that start with `prefix` (a card's ranges), as removed. */
  private deleteRange(key: string, prefix: string): void {
    const rows = this.stmt('deleteRange', () => 'DELETE FROM objects WHERE key = ? OR (key > ? AND key < ?) RETURNING key, pack, length').raw().all(key, prefix, `${prefix}\uffff`) as [string, number, number][];
    for (const [gone, pack, length] of rows) {
      this.ledger.addLive(pack, -length);
      this.rows--;
      this.counted.removed++;
      this.touched!.record([[gone, REMOVED, null]]);
    }
  }

  /** The copy's row count (from the meta row, or one count when an older compile wrote the index). */
  private loadRowCount(): number {
    const rows = this.db.prepare('SELECT value FROM object_index_meta WHERE key = ?').pluck().get(ROWS_META) as string | undefined;
    return rows !== undefined ? Number(rows) : (this.db.prepare('SELECT count(*) FROM objects').pluck().get() as number);
  }

  /** The per-URL snapshot's manifest entries, into a scratch file attached as `prev`. */
  private loadManifest(file: string, manifest: string): void {
    rmSync(file, { force: true });
    this.db.prepare('ATTACH DATABASE ? AS prev').run(file);
    this.db.exec('PRAGMA prev.journal_mode = OFF');
    this.db.exec('CREATE TABLE prev.objects (key TEXT PRIMARY KEY, length INTEGER NOT NULL, sha256 BLOB NOT NULL, input TEXT) WITHOUT ROWID');
    const put = this.db.prepare('INSERT INTO prev.objects (key, length, sha256, input) VALUES (?, ?, ?, ?)');
    this.db.transaction(() => {
      for (const e of manifestObjects(manifest)) put.run(e.key, e.size, Buffer.from(e.sha256, 'hex'), e.input);
    })();
  }

  private stmt(name: string, sql: () => string): Database.Statement {
    let s = this.statements.get(name);
    if (s === undefined) this.statements.set(name, (s = this.db.prepare(sql())));
    return s;
  }
}

/** `copied`: the previous snapshot's index is already at `path` (prefetch.ts); otherwise it is copied there now. */
/**
 * The token of an entity's input fingerprint, which the aggregates made from the entity fingerprint
 * (document-sink.ts): 144 bits of its SHA-256 in base64, 24 characters instead of 129, because every
 * entity's is kept until the aggregates are done (about 110 MB less at a million cards). Kept in the
 * entity's price table slot (price-table.ts) and with its stored price line (price-line-store.ts).
 */
export function entityToken(input: string): string {
  return oneShotHash('sha256', input, 'buffer').toString('base64', 0, 18);
}

export function openObjectTable(path: string, previous: PreviousSnapshot | null, out: PackOutput, copied = false): ObjectTable {
  return new ObjectTable(path, previous, out, copied);
}

/** The entity id in a card key (`v1/cards/<id>/30d.json.gz`) or figure key (`v1/figures/<id>.json.gz`). */
function entityIdOf(key: string, from: string): string {
  const rest = key.slice(from.length);
  const slash = rest.indexOf('/');
  return slash >= 0 ? rest.slice(0, slash) : rest.slice(0, rest.length - '.json.gz'.length);
}

/**
 * Drops the price line tables from a copy of an index written before they had a file of their own
 * (price-line-store.ts), and compacts it once: their pages (a quarter of a million-card index) would
 * otherwise stay in every later copy as free pages, hashed, uploaded and mirrored.
 */
function dropStoredPriceLines(db: Database.Database): void {
  const found = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${PRICE_LINE_TABLES.map(() => '?').join(', ')})`).pluck().all(...PRICE_LINE_TABLES);
  if (found.length === 0) return;
  for (const name of PRICE_LINE_TABLES) db.exec(`DROP TABLE IF EXISTS ${name}`);
  db.exec('VACUUM');
}
