/**
 * The keys an incremental compile wrote or re-used, each with its change against the previous
 * snapshot, in a temporary table (`touched`) of the object index's connection (object-table.ts). The
 * counts, the change list, the stale aggregates and the bulk files' changed objects are read from it,
 * so none of them scans the unchanged rows of a copy of the previous index.
 *
 * `before` is a changed key's previous SHA-256 (the bulk files' previous digests, digests.ts).
 *
 * @example
 *   const touched = new TouchedKeys(db);
 *   touched.record([['v1/catalog/summary.json.gz', CHANGED, previousSha]]);
 *   touched.reused(['v1/oracle/o1.json.gz']);   // buffered; flush() before reading
 */
import type Database from 'better-sqlite3';
import type { ChangeEntry } from '../../snapshots/manifest.js';
import { BATCH, duplicateKeyError, rowMarks } from './sql-batch.js';

export const UNCHANGED = 0;
export const NEW = 1;
export const CHANGED = 2;
export const REMOVED = 3;
const CHANGE_NAMES = ['unchanged', 'new', 'changed', 'removed'] as const;

export type TouchedRow = [key: string, change: number, before: Buffer | null];

/** A key range of the object index, with a condition on the key (SQL), as document-ranges.ts gives them. */
export interface KeyRange {
  from: string;
  to: string;
  where: string;
}

export class TouchedKeys {
  private pendingReused: string[] = [];
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {
    db.exec('CREATE TEMP TABLE touched (key TEXT PRIMARY KEY, change INTEGER NOT NULL, before BLOB) WITHOUT ROWID');
  }

  /** Records keys with their change; a key recorded twice is two documents at one key (an internal error). */
  record(rows: TouchedRow[]): void {
    try {
      if (rows.length === BATCH) this.stmt('batch', `INSERT INTO temp.touched (key, change, before) VALUES ${rowMarks(BATCH, 3)}`).run(rows.flat());
      else {
        const one = this.stmt('one', 'INSERT INTO temp.touched (key, change, before) VALUES (?, ?, ?)');
        for (const r of rows) one.run(r);
      }
    } catch (err) {
      throw duplicateKeyError(err, rows.map((r) => r[0]));
    }
  }

  /** Records aggregates re-used as they are (unchanged), BATCH at a time. */
  reused(keys: readonly string[]): void {
    this.pendingReused.push(...keys);
    if (this.pendingReused.length >= BATCH) this.flush();
  }

  flush(): void {
    const keys = this.pendingReused;
    if (keys.length === 0) return;
    this.pendingReused = [];
    this.record(keys.map((key): TouchedRow => [key, UNCHANGED, null]));
  }

  /**
   * Records as unchanged every row of main.objects in [from, to) not recorded yet, when there are
   * exactly `expected`; returns whether it did. The caller has flushed its own writes.
   */
  recordRest(from: string, to: string, expected: number): boolean {
    this.flush();
    const rest = 'FROM main.objects WHERE key >= ? AND key < ? AND key NOT IN (SELECT key FROM temp.touched)';
    if ((this.db.prepare(`SELECT count(*) ${rest}`).pluck().get(from, to) as number) !== expected) return false;
    this.db.prepare(`INSERT INTO temp.touched (key, change, before) SELECT key, ${UNCHANGED}, NULL ${rest}`).run(from, to);
    return true;
  }

  /** The keys of `range` recorded with a change, in key order: [key, change, before]. */
  changedIn(range: KeyRange): TouchedRow[] {
    this.flush();
    return this.db.prepare(`SELECT key, change, before FROM temp.touched WHERE key >= ? AND key < ? AND ${range.where} AND change != ${UNCHANGED} ORDER BY key`).raw().all(range.from, range.to) as TouchedRow[];
  }

  /** The keys of `range` recorded with a change and still in main.objects, with their rows: [key, change, pack, offset, length, sha256]. */
  changedRowsIn(range: KeyRange): [string, number, number, number, number, Buffer][] {
    this.flush();
    return this.db.prepare(
      `SELECT key, change, pack, offset, length, sha256 FROM temp.touched JOIN main.objects USING (key)
        WHERE key >= ? AND key < ? AND ${range.where} AND change != ${UNCHANGED} ORDER BY key`,
    ).raw().all(range.from, range.to) as [string, number, number, number, number, Buffer][];
  }

  /** How many keys of `range` were recorded as removed. */
  removedIn(range: KeyRange): number {
    this.flush();
    return this.db.prepare(`SELECT count(*) FROM temp.touched WHERE key >= ? AND key < ? AND ${range.where} AND change = ${REMOVED}`).pluck().get(range.from, range.to) as number;
  }

  /** The keys of main.objects matching `where` (SQL on `key`) that were never recorded. */
  untouched(where: string): string[] {
    this.flush();
    return this.db.prepare(`SELECT key FROM objects WHERE ${where} AND key NOT IN (SELECT key FROM temp.touched)`).pluck().all() as string[];
  }

  /** Records every key of prev.objects (a per-URL previous snapshot) main.objects lacks as removed; returns how many. */
  recordGoneFromPrevious(): number {
    this.flush();
    return this.db.prepare('INSERT INTO temp.touched (key, change) SELECT key, ? FROM prev.objects WHERE key NOT IN (SELECT key FROM main.objects)').run(REMOVED).changes;
  }

  /** Every key recorded with a change, in key order (read from the table each time it is iterated). */
  changes(): Iterable<ChangeEntry> {
    this.flush();
    const db = this.db;
    return {
      *[Symbol.iterator]() {
        const rows = db.prepare(`SELECT key, change FROM temp.touched WHERE change != ${UNCHANGED} ORDER BY key`).raw().iterate() as Iterable<[string, number]>;
        for (const [key, change] of rows) yield { key, change: CHANGE_NAMES[change] as ChangeEntry['change'] };
      },
    };
  }

  private stmt(name: string, sql: string): Database.Statement {
    let s = this.statements.get(name);
    if (s === undefined) this.statements.set(name, (s = this.db.prepare(sql)));
    return s;
  }
}
