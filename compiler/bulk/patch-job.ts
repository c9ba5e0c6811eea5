/**
 * A document bulk job given as what this compile changed, completed on the bulk thread from the
 * previous snapshot's object index (issue 17, an incremental compile whose work follows the change).
 *
 * A document job lists every object of its file in key order, with its SHA-256 and where it is
 * (write-bulk.ts `documentJob`). Made on the main thread from this compile's index, that is a
 * million rows read back at a million cards (about 6 s of the thread every other phase waits for,
 * docs/benchmarks.md). When no key of the file was added or removed, the list is the previous
 * snapshot's with the changed objects replaced: the main thread sends only those (a few thousand
 * after a 1% price change), and the bulk thread reads the rest from the previous index, which is
 * complete and never written again. The job it makes is the one `documentJob` makes from the whole
 * list, so the file and its input fingerprint are the same bytes.
 *
 * @example
 *   const patch = documentPatch('cards', previousIndex, packsDir, table.changedObjects('cards')!);
 *   bulk.submit({ name: 'cards', input: '', count: 0, patch });   // expanded by patchedJob on the thread
 */
import Database from 'better-sqlite3';
import { CatalogError } from '../../snapshots/errors.js';
import { documentRowsSql, type DocumentName } from './document-ranges.js';
import { createDigestList } from './digests.js';
import { documentInput } from './segment-state.js';
import type { BulkJob } from './write-bulk.js';

/** An object this compile wrote with other bytes than the previous snapshot's, where it is now. */
export interface PatchedObject {
  key: string;
  size: number;
  /** SHA-256 of the new bytes (32 bytes). */
  digest: Uint8Array;
  /** SHA-256 of the (sealed) pack that holds them. */
  pack: string;
  offset: number;
}

/** Plain data, posted to the bulk thread. */
export interface DocumentPatch {
  name: DocumentName;
  /** The previous snapshot's objects.sqlite. */
  previousIndex: string;
  packsDir: string;
  /** In key order; every key is one of the previous snapshot's. */
  changed: PatchedObject[];
}

export function documentPatch(name: DocumentName, previousIndex: string, packsDir: string, changed: PatchedObject[]): BulkJob {
  return { name, input: '', count: 0, patch: { name, previousIndex, packsDir, changed } };
}

/**
 * The whole job of a patch: the previous index's objects of the file in key order, each changed one
 * replaced by its new digest and location; the previous digests are those of the previous index.
 */
export function patchedJob(patch: DocumentPatch): BulkJob {
  const db = new Database(patch.previousIndex, { readonly: true, fileMustExist: true });
  try {
    const packSha = new Map(db.prepare('SELECT seq, sha256 FROM packs').raw().all() as [number, string][]);
    const keys: string[] = [];
    const digests = createDigestList();
    const before = createDigestList();
    const packNames: string[] = [];
    const packIndex = new Map<string, number>();
    const packs: number[] = [];
    const offsets: number[] = [];
    const sizes: number[] = [];
    const packNumber = (sha: string): number => {
      let n = packIndex.get(sha);
      if (n === undefined) packIndex.set(sha, (n = packNames.push(sha) - 1));
      return n;
    };
    const { changed } = patch;
    let c = 0;
    const rows = db.prepare(documentRowsSql(patch.name, 'key, pack, offset, length, sha256')).raw().iterate() as Iterable<[string, number, number, number, Buffer]>;
    for (const [key, pack, offset, length, sha] of rows) {
      keys.push(key);
      before.addBytes(sha);
      if (c < changed.length && changed[c].key === key) {
        const o = changed[c++];
        digests.addBytes(o.digest);
        packs.push(packNumber(o.pack));
        offsets.push(o.offset);
        sizes.push(o.size);
        continue;
      }
      const sha256 = packSha.get(pack);
      if (sha256 === undefined) throw new CatalogError('internal', `${key} is in pack number ${pack}, which the previous index does not list`);
      digests.addBytes(sha);
      packs.push(packNumber(sha256));
      offsets.push(offset);
      sizes.push(length);
    }
    if (c !== changed.length) throw new CatalogError('internal', `${changed[c].key} changed, but the previous snapshot's ${patch.name} bulk file has no such object`);
    const shas = digests.finish();
    return {
      name: patch.name,
      input: documentInput(keys, shas),
      count: keys.length,
      keys,
      shas,
      stored: { packsDir: patch.packsDir, packNames, packs: Uint32Array.from(packs), offsets: Float64Array.from(offsets), sizes: Float64Array.from(sizes) },
      previous: { keys: 'same', shas: before.finish() },
    };
  } finally {
    db.close();
  }
}
