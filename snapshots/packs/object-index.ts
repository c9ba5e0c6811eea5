/**
 * The object index of a packed snapshot (issue 17): object key (the URL path, keys.ts) → (pack,
 * offset, length, sha256, input), a table in the snapshot's SQLite file beside the search index, so a
 * snapshot stays one well-known file plus the packs it references, and a lookup is one prepared
 * statement. The signed manifest lists the packs and the index file's hash; the index holds every
 * object's own SHA-256, so `verify` proves both levels.
 *
 * Measured before settling (`npm run bench:pack-index`, docs/benchmarks.md): a WITHOUT ROWID table
 * keyed by `key` takes 601 MiB for 5.3 million keys (a million cards), 30% less than a rowid table
 * with an index and two thirds of the per-object manifest it replaces, builds in about 18 s and
 * answers about 66,000 point lookups a second on one core. The compile fills the table as it writes
 * objects (render order, 23 s instead of 18 s for 5.3 million rows in that measurement, but nothing
 * held in the heap); an incremental compile starts from a copy of the previous index
 * (compiler/compile/object-table.ts). `writeObjectIndex` writes a whole index at once (tests, tools).
 *
 * Like search-schema.ts, this file holds the schema and the statements; the caller owns the database.
 *
 * @example
 *   writeObjectIndex(db, [{ sha256: '9f…', size: 268435456 }], [{ key: 'v1/catalog/summary.json.gz', pack: 0, offset: 0, length: 357, sha256: '2956…', input: null }]);
 *   createObjectLookup(db).get('v1/catalog/summary.json.gz')  // { pack: '9f…', offset: 0, length: 357, sha256: '2956…' }
 */
import type { Database } from 'better-sqlite3';
import { CatalogError } from '../errors.js';

/** Bumped whenever the tables change; a reader refuses an index of another version. */
export const OBJECT_INDEX_VERSION = 1;

export const OBJECT_INDEX_DDL: readonly string[] = [
  // `seq` is local to this index: the packs one snapshot references, old and new. Numbers may have
  // gaps (an incremental compile's index is a copy of the previous one, and a pack it no longer
  // uses is dropped from the list without renumbering the rows): readers join on `seq`, never count.
  'CREATE TABLE packs (seq INTEGER PRIMARY KEY, sha256 TEXT NOT NULL UNIQUE, size INTEGER NOT NULL)',
  `CREATE TABLE objects (
     key TEXT PRIMARY KEY,
     pack INTEGER NOT NULL,
     offset INTEGER NOT NULL,
     length INTEGER NOT NULL,
     sha256 BLOB NOT NULL,
     input TEXT
   ) WITHOUT ROWID`,
  'CREATE TABLE object_index_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)',
];

export interface IndexedPack {
  sha256: string;
  size: number;
}

export interface IndexRow {
  key: string;
  /** Position of the object's pack in the `packs` list given with the rows. */
  pack: number;
  offset: number;
  length: number;
  /** SHA-256 (hex) of the stored bytes: the object's ETag. */
  sha256: string;
  input: string | null;
}

export interface ObjectLocation {
  /** SHA-256 (hex) of the pack that holds the object. */
  pack: string;
  offset: number;
  length: number;
  sha256: string;
}

/** Creates the (empty) tables of an object index; the compile fills them as it writes objects. */
export function createObjectIndexTables(db: Database): void {
  for (const ddl of OBJECT_INDEX_DDL) db.exec(ddl);
}

/** Records the index version: readers refuse an index without it (the last write of a new index). */
export function writeObjectIndexVersion(db: Database): void {
  db.prepare('INSERT OR REPLACE INTO object_index_meta (key, value) VALUES (?, ?)').run('version', String(OBJECT_INDEX_VERSION));
}

/** Creates the tables and fills them in one transaction; give the rows sorted by key. */
export function writeObjectIndex(db: Database, packs: readonly IndexedPack[], rows: Iterable<IndexRow>): number {
  createObjectIndexTables(db);
  const putPack = db.prepare('INSERT INTO packs (seq, sha256, size) VALUES (?, ?, ?)');
  const putObject = db.prepare('INSERT INTO objects (key, pack, offset, length, sha256, input) VALUES (?, ?, ?, ?, ?, ?)');
  let count = 0;
  db.transaction(() => {
    packs.forEach((p, seq) => putPack.run(seq, p.sha256, p.size));
    for (const r of rows) {
      putObject.run(r.key, r.pack, r.offset, r.length, Buffer.from(r.sha256, 'hex'), r.input);
      count++;
    }
    writeObjectIndexVersion(db);
  })();
  return count;
}

export interface ObjectLookup {
  get(key: string): ObjectLocation | null;
  packs(): IndexedPack[];
}

export function createObjectLookup(db: Database): ObjectLookup {
  const version = db.prepare("SELECT value FROM object_index_meta WHERE key = 'version'").pluck().get() as string | undefined;
  if (version !== String(OBJECT_INDEX_VERSION)) {
    throw new CatalogError('corrupt_object', `object index version ${version ?? 'missing'} is not ${OBJECT_INDEX_VERSION}: compiled by another version of catalog`);
  }
  const byKey = db.prepare(
    'SELECT p.sha256 AS pack, o.offset AS offset, o.length AS length, o.sha256 AS sha256 FROM objects o JOIN packs p ON p.seq = o.pack WHERE o.key = ?',
  );
  const allPacks = db.prepare('SELECT sha256, size FROM packs ORDER BY seq');
  return {
    get(key) {
      const row = byKey.get(key) as { pack: string; offset: number; length: number; sha256: Buffer } | undefined;
      return row === undefined ? null : { pack: row.pack, offset: row.offset, length: row.length, sha256: row.sha256.toString('hex') };
    },
    packs: () => allPacks.all() as IndexedPack[],
  };
}
