/**
 * The previous snapshot's manifest, loaded as a map so the compile can re-use every object whose
 * inputs did not change (hard link instead of render + gzip) and count new/changed/removed keys.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE } from '../../snapshots/keys.js';
import { isManifestHeader, readManifest, type ManifestEntry } from '../../snapshots/manifest.js';
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
  for await (const item of readManifest(manifestPath)) {
    if (isManifestHeader(item)) continue;
    const e = item as ManifestEntry;
    objects.set(e.key, { size: e.size, sha256: e.sha256, input: e.input });
  }
  return { id, dir, objects };
}
