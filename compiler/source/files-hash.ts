/**
 * One hash over `meta.json` and every catalog file but prices: what the catalog load reads. Equal
 * hashes mean byte-identical files, so the compile may take the catalog it loaded last time instead
 * of reading and validating them again (compile/stored-catalog.ts). Prices are streamed and compared
 * line by line (compile/price-line-store.ts), so they are left out.
 *
 * The hash is split from finding the files (`localCatalogFiles`) so a thread can take it from their
 * paths (compile/read-ahead.ts); `statCatalogFiles` is the cheap stand-in that says whether hashing
 * them is likely to find them unchanged (never whether they are).
 *
 * @example
 *   await catalogFilesHash(openSource('data/catalog'))   // 'sha256:3f0c…' (null for a source that cannot say)
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { META_FILE, SOURCE_FILES } from '../../snapshots/records.js';
import type { CatalogSource } from './catalog-source.js';

/** The files the catalog load reads, in a fixed order. */
const LOADED_FILES = [META_FILE, ...Object.entries(SOURCE_FILES).filter(([kind]) => kind !== 'prices').map(([, file]) => file)];

/** One file the load reads: its name in the catalog and its local path (null: the catalog has none). */
export interface CatalogFile {
  name: string;
  path: string | null;
}

/**
 * The hash, or null when the source cannot hand out its files (no `localFile`) or one of them cannot
 * be read: the compile then reads the catalog as it always did, and that read reports the problem.
 */
export async function catalogFilesHash(source: CatalogSource): Promise<string | null> {
  const files = await localCatalogFiles(source);
  return files === null ? null : hashCatalogFiles(files);
}

/** The local paths of the files the load reads, or null when the source cannot hand them out. */
export async function localCatalogFiles(source: CatalogSource): Promise<CatalogFile[] | null> {
  if (source.localFile === undefined) return null;
  try {
    const files: CatalogFile[] = [];
    for (const name of LOADED_FILES) files.push({ name, path: await source.localFile(name) });
    return files;
  } catch {
    return null;
  }
}

/** catalogFilesHash of files found by localCatalogFiles (on any thread); null when one cannot be read. */
export function hashCatalogFiles(files: readonly CatalogFile[]): string | null {
  const all = createHash('sha256');
  const chunk = Buffer.allocUnsafe(8 << 20);
  try {
    for (const { name, path } of files) {
      all.update(`${name}\u0000`);
      if (path === null) {
        all.update('absent\u0000');
        continue;
      }
      const one = createHash('sha256');
      const fd = openSync(path, 'r');
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

/**
 * What the file system says of the files (each one's size, modification and change times and inode),
 * as one string; null when one cannot be stat'ed. Equal to the one taken when a stored catalog was
 * written, the files are most likely the same bytes, so the compile may start decoding that catalog
 * while their hash is taken; it is used only if the hash then agrees.
 */
export function statCatalogFiles(files: readonly CatalogFile[]): string | null {
  try {
    const parts: string[] = [];
    for (const { name, path } of files) {
      if (path === null) parts.push(`${name}:absent`);
      else {
        const s = statSync(path, { bigint: true });
        parts.push(`${name}:${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}`);
      }
    }
    return createHash('sha256').update(parts.join('\u0000')).digest('hex');
  } catch {
    return null;
  }
}
