/**
 * The previous snapshot's manifest, loaded as a map so the compile can re-use every object whose
 * inputs did not change (hard link instead of render + gzip) and count new/changed/removed keys.
 */
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { join } from 'node:path';
import { MANIFEST_FILE } from '../../snapshots/keys.js';
import { isManifestHeader, MANIFEST_FORMAT, type ManifestEntry, type ManifestHeader } from '../../snapshots/manifest.js';
import { readCurrentId } from '../../snapshots/store/pointer.js';

export interface PreviousObject {
  size: number;
  sha256: string;
  input: string | null;
}

export interface PreviousSnapshot {
  id: string;
  dir: string;
  objects: Map<string, PreviousObject>;
}

export async function loadPreviousSnapshot(root: string): Promise<PreviousSnapshot | null> {
  const id = await readCurrentId(root);
  if (id === null) return null;
  const dir = join(root, id);
  const manifestPath = join(dir, MANIFEST_FILE);
  if (!existsSync(manifestPath)) return null;
  const objects = new Map<string, PreviousObject>();
  let first = true;
  for (const line of linesSync(manifestPath)) {
    const item = JSON.parse(line) as ManifestHeader | ManifestEntry;
    if (first) {
      first = false;
      if ((item as ManifestHeader).format !== MANIFEST_FORMAT) throw new Error(`not a catalog manifest: ${manifestPath}`);
    }
    if (isManifestHeader(item)) continue;
    objects.set(item.key, { size: item.size, sha256: item.sha256, input: item.input });
  }
  return { id, dir, objects };
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
