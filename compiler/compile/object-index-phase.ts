/**
 * The compile's `object index` phase: the object index of the new snapshot (objects.sqlite), written
 * once every object has its final pack and offset.
 */
import Database from 'better-sqlite3';
import type { PackRef } from '../../snapshots/manifest.js';
import { writeObjectIndex } from '../../snapshots/packs/object-index.js';
import type { ObjectTable } from './object-table.js';
import type { PackOutput } from './pack-output.js';

/**
 * Writes the object index (objects.sqlite) and returns the packs it references. Positions in the
 * pack list are assigned on a first pass, so the rows can then be streamed in key order.
 */
export function writeSnapshotIndex(path: string, out: PackOutput, table: ObjectTable): PackRef[] {
  const { packs, position } = out.finish();
  for (const e of table.values()) position(e.at);
  const db = new Database(path);
  try {
    // A fresh file written once and published only after it is complete: no journal needed.
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    writeObjectIndex(db, packs, (function* () {
      for (const e of table.sorted()) yield { key: e.key, pack: position(e.at), offset: e.at.offset, length: e.size, sha256: e.sha256, input: e.input };
    })());
  } finally {
    db.close();
  }
  return packs;
}

