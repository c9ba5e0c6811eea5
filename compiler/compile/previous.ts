/**
 * The previous snapshot: where it is and how its objects are found. Nothing of it is loaded into
 * memory (at a million cards its index holds 5.3 million rows): a packed previous snapshot (manifest
 * version 2) is the file the new object index starts as a copy of, and its rows are looked up by
 * prepared statement (object-table.ts). A previous snapshot of the per-URL layout (before issue 17)
 * has no index: its manifest lines are loaded into a scratch SQLite table once, and its unchanged
 * objects are copied into the new pack (pack-output.ts), which is how a root moves to packs.
 */
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { join } from 'node:path';
import { MANIFEST_FILE, OBJECT_INDEX_FILE, PACKS_DIR } from '../../snapshots/keys.js';
import { isManifestHeader, MANIFEST_FORMAT, type ManifestEntry, type ManifestHeader } from '../../snapshots/manifest.js';
import { readCurrentId } from '../../snapshots/store/pointer.js';

export interface PreviousSnapshot {
  id: string;
  dir: string;
  /** Folder of the root's packs. */
  packsDir: string;
  /** True when the previous snapshot is packed: `index` is its object index (objects.sqlite). */
  packed: boolean;
  /** The previous snapshot's objects.sqlite (packed) or manifest.ndjson (per-URL layout). */
  index: string;
}

export async function loadPreviousSnapshot(root: string): Promise<PreviousSnapshot | null> {
  const id = await readCurrentId(root);
  if (id === null) return null;
  const dir = join(root, id);
  const manifestPath = join(dir, MANIFEST_FILE);
  if (!existsSync(manifestPath)) return null;
  const packsDir = join(root, PACKS_DIR);
  const indexPath = join(dir, OBJECT_INDEX_FILE);
  if (existsSync(indexPath)) return { id, dir, packsDir, packed: true, index: indexPath };
  return { id, dir, packsDir, packed: false, index: manifestPath };
}

/** The objects a per-URL snapshot's manifest lists (its header checked, then skipped). */
export function* manifestObjects(path: string): Generator<ManifestEntry> {
  let first = true;
  for (const line of linesSync(path)) {
    const item = JSON.parse(line) as ManifestHeader | ManifestEntry;
    if (first) {
      first = false;
      if ((item as ManifestHeader).format !== MANIFEST_FORMAT) throw new Error(`not a catalog manifest: ${path}`);
    }
    if (!isManifestHeader(item)) yield item;
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
