/**
 * The mirror folder: `catalog-mirror.json` marks it, `current` points at the verified snapshot
 * nginx serves, snapshot folders sit beside it, and `.partial/<id>/` holds a sync in progress (what it
 * verified survives an interruption). A folder that exists, is not empty and has no marker is not
 * a mirror: the command refuses to write into it rather than mix files into someone else's data.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CatalogError } from '../snapshots/errors.js';
import { makeDirsSync } from '../snapshots/store/make-dirs.js';

export const MIRROR_MARKER = 'catalog-mirror.json';
export const PARTIAL_DIR = '.partial';

export interface MirrorMarker {
  format: 'catalog-mirror';
  version: 1;
  /** Origin base URL (never the key). */
  origin: string;
}

export function openMirrorTarget(dir: string, origin: string): void {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    makeDirsSync(dir);
    isDir = true;
  }
  if (!isDir) throw new CatalogError('usage', `--to ${dir} is a file, not a mirror folder`, { option: 'to' });
  const markerPath = join(dir, MIRROR_MARKER);
  if (existsSync(markerPath)) {
    let marker: Partial<MirrorMarker> = {};
    try {
      marker = JSON.parse(readFileSync(markerPath, 'utf8')) as Partial<MirrorMarker>;
    } catch {
      // judged below
    }
    if (marker.format !== 'catalog-mirror') throw new CatalogError('usage', `--to ${dir}: ${MIRROR_MARKER} is not a catalog mirror marker`, { option: 'to' });
    return;
  }
  if (readdirSync(dir).length > 0) {
    throw new CatalogError('usage', `--to ${dir} is not empty and is not a catalog mirror (no ${MIRROR_MARKER}); nothing was written. Give a new or empty folder, or an existing mirror.`, { option: 'to' });
  }
  const marker: MirrorMarker = { format: 'catalog-mirror', version: 1, origin };
  writeFileSync(markerPath, JSON.stringify(marker) + '\n');
}
