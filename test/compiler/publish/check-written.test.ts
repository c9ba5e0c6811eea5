/**
 * The on-disk check the compile runs before anything is published (compiler/publish/publish.ts):
 * every object it recorded as written must be there with the recorded size, and the required files
 * must exist; otherwise an `io` error names the first problems and the compile publishes nothing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkWritten } from '../../../compiler/publish/publish.js';
import { CatalogError } from '../../../snapshots/errors.js';
import type { ManifestEntry } from '../../../snapshots/manifest.js';
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

const entry = (key: string, size: number): ManifestEntry => ({ key, size, sha256: '0'.repeat(64) });

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
  it('when every object is there with its recorded size then it passes', () => {
    const dir = folder({ 'v1/cards/a/30d.json.gz': 'abc', 'search.sqlite': 'x' });
    expect(() => checkWritten(dir, [entry('v1/cards/a/30d.json.gz', 3)], ['search.sqlite'])).not.toThrow();
  });

  it('when an object is missing, another has the wrong size and a required file is absent then one io error names all three', () => {
    const dir = folder({ 'v1/cards/a/30d.json.gz': 'abcd' });
    const err = problemOf(() => checkWritten(dir, [entry('v1/cards/a/30d.json.gz', 3), entry('v1/cards/b/30d.json.gz', 5)], ['search.sqlite']));
    expect(err.code).toBe('io');
    expect(err.message).toContain('nothing was published');
    expect(err.message).toContain('v1/cards/a/30d.json.gz: 4 bytes on disk, 3 recorded');
    expect(err.message).toContain('v1/cards/b/30d.json.gz: missing');
    expect(err.message).toContain('search.sqlite: missing');
  });

  it('when thousands of objects are missing then the message stops at the first ten', () => {
    const dir = folder({});
    const err = problemOf(() => checkWritten(dir, Array.from({ length: 5000 }, (_, i) => entry(`v1/cards/c${i}/30d.json.gz`, 1)), []));
    expect(err.message.match(/: missing/g)).toHaveLength(10);
  });
});
