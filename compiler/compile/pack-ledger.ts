/**
 * The packs a new object index lists and how many of each one's bytes its rows still use (the
 * object table's bookkeeping of packs, object-table.ts). Pack numbers (`seq`) are local to the index:
 * a copy of the previous index keeps its numbers and the packs this compile writes are numbered after
 * them; a pack no row uses any more is dropped from the list at the end, so numbers can have gaps.
 *
 * The live bytes are kept in `object_index_meta` (`pack_live_bytes`) so the next compile finds
 * sparse packs (object-index-phase.ts) without a scan of the rows; an index written before that has
 * none, and is scanned once.
 *
 * @example
 *   const ledger = PackLedger.load(db);      // a copy of the previous index: its packs, numbers and live bytes
 *   ledger.addLive(ledger.seqOf(0), 1190);   // an object of this compile's first pack
 *   ledger.register(db, sealed);             // listed in `packs` once sealed
 *   ledger.dropUnused(db)                    // [{ sha256, size }] of the packs still used, in number order
 *   ledger.writeLiveBytes(db)
 */
import type Database from 'better-sqlite3';
import type { PackRef } from '../../snapshots/manifest.js';
import type { SealedPack } from '../../snapshots/packs/pack-writer.js';

/** The object index's meta key of each pack's live bytes. */
const LIVE_BYTES_META = 'pack_live_bytes';

interface PackInfo {
  sha256: string;
  size: number;
}

export class PackLedger {
  /** Pack number in the index → its hash and size (sealed packs only). */
  private readonly packs = new Map<number, PackInfo>();
  private readonly registered = new Set<number>();
  private readonly live = new Map<number, number>();

  /** An empty ledger (a new index): this compile's packs are numbered from 0. */
  constructor(
    /** New packs are numbered from here (after the previous index's). */
    readonly seqBase = 0,
  ) {}

  /** The packs of a copy of the previous index and each one's live bytes (from the meta row, or one scan). */
  static load(db: Database.Database): PackLedger {
    const listed = db.prepare('SELECT seq, sha256, size FROM packs').all() as { seq: number; sha256: string; size: number }[];
    const ledger = new PackLedger(Math.max(-1, ...listed.map((p) => p.seq)) + 1);
    for (const p of listed) {
      ledger.packs.set(p.seq, { sha256: p.sha256, size: p.size });
      ledger.registered.add(p.seq);
    }
    const meta = db.prepare('SELECT value FROM object_index_meta WHERE key = ?').pluck().get(LIVE_BYTES_META) as string | undefined;
    const live = meta !== undefined ? (JSON.parse(meta) as [number, number][]) : (db.prepare('SELECT pack, sum(length) FROM objects GROUP BY pack').raw().all() as [number, number][]);
    for (const [seq, bytes] of live) ledger.live.set(seq, bytes);
    return ledger;
  }

  /** The index's number of this compile's pack `writerSeq` (the pack writer's own sequence number). */
  seqOf(writerSeq: number): number {
    return this.seqBase + writerSeq;
  }

  /** The hash of a sealed pack; undefined while it is still being written. */
  sha256Of(seq: number): string | undefined {
    return this.packs.get(seq)?.sha256;
  }

  addLive(seq: number, bytes: number): void {
    this.live.set(seq, (this.live.get(seq) ?? 0) + bytes);
  }

  /** Previous packs (not this compile's) of which less than `share` of the bytes are still used. */
  sparse(share: number): number[] {
    const sparse: number[] = [];
    for (const [seq, p] of this.packs) {
      const bytes = this.live.get(seq) ?? 0;
      if (seq < this.seqBase && bytes > 0 && bytes < p.size * share) sparse.push(seq);
    }
    return sparse;
  }

  /** Lists a pack this compile sealed (once). */
  register(db: Database.Database, p: SealedPack): void {
    const seq = this.seqOf(p.seq);
    if (this.registered.has(seq)) return;
    this.registered.add(seq);
    const same = [...this.packs].find(([, q]) => q.sha256 === p.sha256);
    if (same === undefined) {
      db.prepare('INSERT INTO packs (seq, sha256, size) VALUES (?, ?, ?)').run(seq, p.sha256, p.size);
      this.packs.set(seq, { sha256: p.sha256, size: p.size });
      return;
    }
    // A new pack with the bytes of one the index lists already (the same objects written again in
    // the same order): one pack, one number. Rare, so the scan of the rows is acceptable.
    db.prepare('UPDATE objects SET pack = ? WHERE pack = ?').run(same[0], seq);
    this.addLive(same[0], this.live.get(seq) ?? 0);
    this.live.delete(seq);
  }

  /**
   * Drops the packs no row uses any more from the `packs` table; returns the remaining packs in
   * number order (the manifest's list).
   */
  dropUnused(db: Database.Database): PackRef[] {
    const drop = db.prepare('DELETE FROM packs WHERE seq = ?');
    for (const seq of [...this.packs.keys()]) {
      if ((this.live.get(seq) ?? 0) > 0) continue;
      drop.run(seq);
      this.packs.delete(seq);
    }
    return this.kept().map((seq) => ({ sha256: this.packs.get(seq)!.sha256, size: this.packs.get(seq)!.size }));
  }

  /** Records each remaining pack's live bytes for the next compile (after `dropUnused`). */
  writeLiveBytes(db: Database.Database): void {
    db.prepare('INSERT OR REPLACE INTO object_index_meta (key, value) VALUES (?, ?)').run(LIVE_BYTES_META, JSON.stringify(this.kept().map((seq) => [seq, this.live.get(seq)])));
  }

  private kept(): number[] {
    return [...this.packs.keys()].sort((a, b) => a - b);
  }
}
