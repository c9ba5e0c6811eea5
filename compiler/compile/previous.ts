/**
 * The previous snapshot's objects, loaded as a map so the compile can re-use every object whose
 * inputs did not change and count new/changed/removed keys. A packed previous snapshot (manifest
 * version 2) is read from its object index: each object keeps its pack and offset, so the new
 * snapshot's index points at the same bytes and nothing is read or written for it. A previous
 * snapshot of the per-URL layout (before issue 17) is read from its manifest lines; its unchanged
 * objects are copied into the new pack once (pack-output.ts), which is how a root moves to packs.
 */
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { join } from 'node:path';
import { MANIFEST_FILE, OBJECT_INDEX_FILE, PACKS_DIR } from '../../snapshots/keys.js';
import { isManifestHeader, MANIFEST_FORMAT, type ManifestEntry, type ManifestHeader } from '../../snapshots/manifest.js';
import { readCurrentId } from '../../snapshots/store/pointer.js';
import { openIndexFile } from '../../snapshots/store/packed-fs.js';
import { ObjectColumns, type StoredObject } from './object-columns.js';

/** An object of the previous snapshot; `at` is its pack and offset (null in a per-URL snapshot). */
export type PreviousObject = StoredObject;

export interface PreviousSnapshot {
  id: string;
  dir: string;
  /** Folder of the root's packs. */
  packsDir: string;
  /** True when the previous snapshot is packed: its objects carry `pack` and `offset`. */
  packed: boolean;
  objects: ObjectColumns;
  /** Size of each pack the previous index references, by SHA-256 (empty for the per-URL layout). */
  packSizes: Map<string, number>;
}

export async function loadPreviousSnapshot(root: string): Promise<PreviousSnapshot | null> {
  const id = await readCurrentId(root);
  if (id === null) return null;
  const dir = join(root, id);
  const manifestPath = join(dir, MANIFEST_FILE);
  if (!existsSync(manifestPath)) return null;
  const packsDir = join(root, PACKS_DIR);
  const indexPath = join(dir, OBJECT_INDEX_FILE);
  if (existsSync(indexPath)) return { id, dir, packsDir, packed: true, ...indexObjects(indexPath, id) };
  const objects = new ObjectColumns();
  let first = true;
  for (const line of linesSync(manifestPath)) {
    const item = JSON.parse(line) as ManifestHeader | ManifestEntry;
    if (first) {
      first = false;
      if ((item as ManifestHeader).format !== MANIFEST_FORMAT) throw new Error(`not a catalog manifest: ${manifestPath}`);
    }
    if (isManifestHeader(item)) continue;
    objects.add({ key: item.key, size: item.size, sha256: item.sha256, input: item.input, at: null });
  }
  return { id, dir, packsDir, packed: false, objects, packSizes: new Map() };
}

/** Every row of a packed snapshot's object index, with its pack's SHA-256. */
function indexObjects(path: string, id: string): { objects: ObjectColumns; packSizes: Map<string, number> } {
  const db = openIndexFile(path, id);
  try {
    const packs = new Map<number, string>();
    const packSizes = new Map<string, number>();
    for (const p of db.prepare('SELECT seq, sha256, size FROM packs').iterate() as Iterable<{ seq: number; sha256: string; size: number }>) {
      packs.set(p.seq, p.sha256);
      packSizes.set(p.sha256, p.size);
    }
    const objects = new ObjectColumns();
    const rows = db.prepare('SELECT key, pack, offset, length, sha256, input FROM objects').raw().iterate() as Iterable<[string, number, number, number, Buffer, string | null]>;
    for (const [key, pack, offset, length, sha, input] of rows) {
      objects.addRaw(key, length, sha, input, { pack: packs.get(pack)!, offset });
    }
    return { objects, packSizes };
  } finally {
    db.close();
  }
}

/**
 * The non-empty lines of a file, read in chunks (4 MiB by default). 1.2-1.9 s of CPU instead of
 * 1.9-2.2 s with readline's async iterator on a 537,576-line manifest (docs/benchmarks.md), and
 * like it never holds the whole file (a 1,000,000-card manifest is longer than V8's longest string).
 *
 * @example [...linesSync('manifest.ndjson')]  // ['{"format":"catalog-manifest",...}', '{"key":...}', ...]
 */
export function* linesSync(path: string, chunkBytes = 4 << 20): Generator<string> {
  const fd = openSync(path, 'r');
  const buf = Buffer.allocUnsafe(chunkBytes);
  const decoder = new StringDecoder('utf8');
  let rest = '';
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      const text = n === 0 ? rest + decoder.end() : rest + decoder.write(buf.subarray(0, n));
      let start = 0;
      for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
        if (end > start) yield text.slice(start, end);
        start = end + 1;
      }
      rest = text.slice(start);
      if (n === 0) break;
    }
    if (rest.length > 0) yield rest;
  } finally {
    closeSync(fd);
  }
}
