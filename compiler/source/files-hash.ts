/**
 * One hash over `meta.json` and every catalog file but prices: what the catalog load reads. Equal
 * hashes mean byte-identical files, so the compile may take the catalog it loaded last time instead
 * of reading and validating them again (compile/stored-catalog.ts). Prices are streamed and compared
 * line by line (compile/price-line-store.ts), so they are left out.
 *
 * @example
 *   await catalogFilesHash(openSource('data/catalog'))   // 'sha256:3f0c…' (null for a source that cannot say)
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { META_FILE, SOURCE_FILES } from '../../snapshots/records.js';
import type { CatalogSource } from './catalog-source.js';

/** The files the catalog load reads, in a fixed order. */
const LOADED_FILES = [META_FILE, ...Object.entries(SOURCE_FILES).filter(([kind]) => kind !== 'prices').map(([, file]) => file)];

/**
 * The hash, or null when the source cannot hand out its files (no `localFile`) or one of them cannot
 * be read: the compile then reads the catalog as it always did, and that read reports the problem.
 */
export async function catalogFilesHash(source: CatalogSource): Promise<string | null> {
  if (source.localFile === undefined) return null;
  const all = createHash('sha256');
  const chunk = Buffer.allocUnsafe(8 << 20);
  try {
    for (const file of LOADED_FILES) {
      const local = await source.localFile(file);
      all.update(`${file}\u0000`);
      if (local === null) {
        all.update('absent\u0000');
        continue;
      }
      const one = createHash('sha256');
      const fd = openSync(local, 'r');
      try {
        const size = fstatSync(fd).size;
        for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) one.update(chunk.subarray(0, n));
        all.update(`${size}:${one.digest('hex')}\u0000`);
      } finally {
        closeSync(fd);
      }
    }
  } catch {
    return null;
  }
  return `sha256:${all.digest('hex')}`;
}
