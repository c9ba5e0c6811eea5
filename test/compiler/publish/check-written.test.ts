/**
 * The on-disk check the compile runs before anything is published (compiler/publish/publish.ts):
 * every pack the header lists must be in the root's packs/ folder with the recorded size, and the
 * snapshot's files must exist; otherwise an `io` error names the first problems and the compile
 * publishes nothing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkWritten } from '../../../compiler/publish/publish.js';
import { CatalogError } from '../../../snapshots/errors.js';
import type { ManifestHeader } from '../../../snapshots/manifest.js';
import { tempDir } from '../../helpers/auth-fixtures.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function folder(files: Record<string, string>): string {
  const t = tempDir('catalog-check-written-');
  cleanup = t.cleanup;
  for (const [key, content] of Object.entries(files)) {
    mkdirSync(join(t.dir, key, '..'), { recursive: true });
    writeFileSync(join(t.dir, key), content);
  }
  return t.dir;
}

const sha = (n: number) => n.toString(16).padStart(64, '0');
const packFile = (n: number) => `packs/${sha(n)}.pack`;
const header = (packs: [number, number][]): ManifestHeader => ({
  format: 'catalog-manifest', version: 2, snapshotId: 'S', asOf: null, objects: 0, previous: null,
  counts: { new: 0, changed: 0, unchanged: 0, removed: 0 }, packs: packs.map(([n, size]) => ({ sha256: sha(n), size })),
});

function problemOf(fn: () => void): CatalogError {
  try {
    fn();
  } catch (err) {
    if (err instanceof CatalogError) return err;
    throw err;
  }
  throw new Error('expected checkWritten to throw');
}

describe('checkWritten', () => {
  it('when every pack is there with its recorded size then it passes', () => {
    const root = folder({ [packFile(1)]: 'abc', 'S/search.sqlite': 'x' });
    expect(() => checkWritten(root, join(root, 'S'), header([[1, 3]]), ['search.sqlite'])).not.toThrow();
  });

  it('when a pack is missing, another has the wrong size and a required file is absent then one io error names all three', () => {
    const root = folder({ [packFile(1)]: 'abcd' });
    const err = problemOf(() => checkWritten(root, join(root, 'S'), header([[1, 3], [2, 5]]), ['search.sqlite']));
    expect(err.code).toBe('io');
    expect(err.message).toContain('nothing was published');
    expect(err.message).toContain(`${packFile(1)}: 4 bytes on disk, 3 recorded`);
    expect(err.message).toContain(`${packFile(2)}: missing`);
    expect(err.message).toContain('search.sqlite: missing');
  });

  it('when thousands of packs are missing then the message stops at the first ten', () => {
    const root = folder({});
    const err = problemOf(() => checkWritten(root, join(root, 'S'), header(Array.from({ length: 5000 }, (_, i) => [i, 1])), []));
    expect(err.message.match(/: missing/g)).toHaveLength(10);
  });
});
