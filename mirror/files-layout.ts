/**
 * `catalog mirror --layout files`: the per-URL files nginx serves (docs/mirroring/nginx.conf), written
 * from the packs the mirror holds, beside the packed snapshot (not instead of it: the packs are what
 * lets the next sync fetch only what it lacks, and they keep the folder a snapshot root that `catalog
 * serve` and `catalog verify` read). Each object is read from its pack by the signed index's (pack,
 * offset, length) and must hash to the SHA-256 the index lists before it is written, so this also
 * checks every object. An object the mirror's previous snapshot holds with the same hash is a hard
 * link to that file, as in a per-URL mirror. Then the ETag map, exactly as for a per-URL origin.
 *
 * @example
 *   await writeFilesLayout({ root: 'm1', staging: 'm1/.partial/<id>', id, previous: 'm1/<old id>', bulk: header.bulk, progress });
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type Database from 'better-sqlite3';
import { sha256Hex } from '../snapshots/codec.js';
import { CatalogError } from '../snapshots/errors.js';
import { OBJECT_INDEX_FILE, PACKS_DIR, isObjectKey } from '../snapshots/keys.js';
import type { BulkFile } from '../snapshots/manifest.js';
import { createObjectLookup } from '../snapshots/packs/object-index.js';
import { createPackReader } from '../snapshots/packs/pack-reader.js';
import { makeDirsSync } from '../snapshots/store/make-dirs.js';
import { openIndexFile } from '../snapshots/store/packed-fs.js';
import { writeSnapshotEtagMap } from './etag-map.js';
import { linkFrom } from './link.js';
import type { MirrorProgress } from './sync-types.js';

interface Row {
  key: string;
  pack: string;
  offset: number;
  length: number;
  sha256: Buffer;
}

/** The SHA-256 the previous snapshot lists for a key: from its object index, or from a per-URL manifest's entries. */
export type PreviousHash = (key: string) => string | undefined;

export function previousHashes(previousDir: string | null, previousId: string | null, manifestEntries: Map<string, string> | null): { of: PreviousHash; close(): void } {
  if (previousDir !== null && previousId !== null && existsSync(join(previousDir, OBJECT_INDEX_FILE))) {
    const db = openIndexFile(join(previousDir, OBJECT_INDEX_FILE), previousId);
    const lookup = createObjectLookup(db);
    return { of: (key) => lookup.get(key)?.sha256, close: () => db.close() };
  }
  return { of: (key) => manifestEntries?.get(key), close: () => undefined };
}

export async function writeFilesLayout(a: {
  root: string; staging: string; id: string; previousDir: string | null; previous: PreviousHash; bulk: BulkFile[]; objects: number; progress: MirrorProgress;
}): Promise<{ extracted: number; linked: number }> {
  const db: Database.Database = openIndexFile(join(a.staging, OBJECT_INDEX_FILE), a.id);
  const packs = createPackReader({ dir: join(a.root, PACKS_DIR) });
  const dirs = new Set<string>();
  let extracted = 0;
  let linked = 0;
  a.progress.phase('per-URL files', a.objects);
  try {
    const rows = db.prepare('SELECT o.key AS key, p.sha256 AS pack, o.offset AS offset, o.length AS length, o.sha256 AS sha256 FROM objects o JOIN packs p ON p.seq = o.pack ORDER BY o.key');
    for (const r of rows.iterate() as IterableIterator<Row>) {
      // The key becomes a path: the signed index is trusted for bytes, not for path shapes.
      if (!isObjectKey(r.key)) throw new CatalogError('verify_failed', `the object index lists an invalid object key: ${JSON.stringify(r.key).slice(0, 200)}`);
      const sha256 = r.sha256.toString('hex');
      const path = join(a.staging, r.key);
      const d = dirname(path);
      if (!dirs.has(d)) {
        makeDirsSync(d);
        dirs.add(d);
      }
      // A file left by an interrupted run may be a link to the previous snapshot's: never write through it.
      rmSync(path, { force: true });
      const before = a.previousDir === null ? null : join(a.previousDir, r.key);
      if (before !== null && a.previous(r.key) === sha256 && existsSync(before)) {
        linkFrom(before, path);
        linked++;
      } else {
        const bytes = packs.read(r.pack, r.offset, r.length);
        if (sha256Hex(bytes) !== sha256) {
          throw new CatalogError('verify_failed', `${r.key}: the bytes in pack ${r.pack} at ${r.offset} do not match the object index (sha256 ${sha256}); ` +
            'nothing was switched, the mirror still serves its previous snapshot');
        }
        writeFileSync(path, bytes);
        extracted++;
      }
      if ((extracted + linked) % 1000 === 0) a.progress.advance(1000);
    }
    // A second pass over the index rather than a list of every key kept from the first (flat memory).
    const tags = db.prepare('SELECT key, sha256 FROM objects ORDER BY key');
    await writeSnapshotEtagMap(a.staging, a.id, (function* () {
      for (const r of tags.iterate() as IterableIterator<{ key: string; sha256: Buffer }>) yield { key: r.key, sha256: r.sha256.toString('hex') };
    })(), a.bulk);
  } finally {
    packs.close();
    db.close();
  }
  return { extracted, linked };
}
