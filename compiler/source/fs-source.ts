/**
 * The catalog read from a folder: `meta.json` plus one NDJSON file per kind, streamed from disk.
 *
 * @example
 *   const source = createFolderSource('/data/catalog');
 *   for await (const line of source.lines('sets')) ...
 */
import fs from 'node:fs';
import path from 'node:path';
import { CatalogError } from '../../snapshots/errors.js';
import { META_FILE, type CatalogMeta, type SourceKind } from '../../snapshots/records.js';
import type { CatalogSource, SourceLine } from './catalog-source.js';
import { fileOf, isOptionalKind } from './files.js';
import { fileChunks, splitLineBytes, splitLines, type ByteLine } from './lines.js';
import { parseMeta } from './meta.js';

export function createFolderSource(dir: string): CatalogSource {
  return {
    describe: () => `folder ${dir}`,

    async readMeta(): Promise<CatalogMeta> {
      const file = path.join(dir, META_FILE);
      let text: string;
      try {
        text = await fs.promises.readFile(file, 'utf8');
      } catch (err) {
        throw missingOrUnreadable(err, file);
      }
      return parseMeta(text, file);
    },

    lines(kind: SourceKind): AsyncIterable<SourceLine> {
      return readLines(path.join(dir, fileOf(kind)), isOptionalKind(kind), splitLines);
    },

    lineBytes(kind: SourceKind): AsyncIterable<ByteLine[]> {
      return readLines(path.join(dir, fileOf(kind)), isOptionalKind(kind), splitLineBytes);
    },

    linesFile: (kind: SourceKind) => path.join(dir, fileOf(kind)),

    async localFile(file: string): Promise<string | null> {
      const local = path.join(dir, file);
      const stat = await fs.promises.stat(local).catch(() => null);
      return stat?.isFile() ? local : null;
    },

    close: async () => {},
  };
}

async function* readLines<L>(file: string, optional: boolean, split: (chunks: AsyncIterable<Buffer>) => AsyncGenerator<L>): AsyncGenerator<L> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch (err) {
    if (optional && (err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw missingOrUnreadable(err, file);
  }
  // fileChunks closes the handle, also when the consumer stops early.
  try {
    yield* split(fileChunks(handle));
  } catch (err) {
    // Only read errors land here: a consumer that stops early returns the generator, never throws into it.
    throw missingOrUnreadable(err, file);
  }
}

/** The error for a catalog file that cannot be opened or read (a CatalogError thrown again as it is). */
export function missingOrUnreadable(err: unknown, file: string): CatalogError {
  if (err instanceof CatalogError) return err;
  if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
    return new CatalogError('invalid_source', `required file ${file} is missing`, { file });
  }
  return new CatalogError('io', `cannot read ${file}: ${(err as Error).message}`, { file }, { cause: err });
}
