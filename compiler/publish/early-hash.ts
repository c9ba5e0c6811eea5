/**
 * A snapshot file hashed for the manifest as soon as it is final, not in the publish step: at a
 * million cards the object index (about 840 MB) and the search index (about 640 MB) took the publish
 * step 2.3 s on the main thread, after everything else, while the main thread had waited seconds
 * for the bulk files just before (docs/benchmarks.md, "Incremental compile: the bulk thread's tail
 * and the publish step"). The hash streams on the event loop while the compile awaits
 * its threads.
 *
 * An early hash is used only when the file is still the one hashed: its size, inode, modification
 * and change times are taken before the hash starts and compared when the hash is taken; any
 * difference (something wrote to the file after all) and it is hashed again, so a manifest never
 * records a digest of bytes that are not there.
 *
 * @example
 *   const early = startHash(join(dir, OBJECT_INDEX_FILE));   // the file is final
 *   ...                                                       // other work; the hash streams meanwhile
 *   const { sha256, size } = (await takeHash(early))!;       // null: the file cannot be read
 */
import { statSync, type Stats } from 'node:fs';
import { hashFile } from '../../snapshots/store/verify-folder.js';

export interface EarlyHash {
  path: string;
  /** The file's stat before the hash started (null: it could not be read then). */
  before: string | null;
  hashed: Promise<{ sha256: string; size: number } | null>;
}

/** Starts hashing `path`, a file nothing will write again. Never rejects: an unreadable file hashes to null. */
export function startHash(path: string): EarlyHash {
  const before = statKey(path);
  return { path, before, hashed: hashFile(path) };
}

/** The digest and size of the file as it is now: the early hash when the file did not change since, else a new one. */
export async function takeHash(early: EarlyHash): Promise<{ sha256: string; size: number } | null> {
  const hashed = await early.hashed;
  if (hashed !== null && early.before !== null && statKey(early.path) === early.before) return hashed;
  return hashFile(early.path);
}

function statKey(path: string): string | null {
  let s: Stats;
  try {
    s = statSync(path);
  } catch {
    return null;
  }
  return `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
}
