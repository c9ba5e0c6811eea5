import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CatalogError } from '../../../snapshots/errors.js';
import { openSource, type OpenSourceOptions } from '../../../compiler/source/index.js';
import { fileUrl, parseLocation, redactUrl } from '../../../compiler/source/location.js';
import { makeTempDir, removeTempDirs } from './catalog-fixture.js';

afterAll(removeTempDirs);

function usageError(location: string, options?: OpenSourceOptions): CatalogError {
  try {
    openSource(location, options);
  } catch (err) {
    expect(err).toBeInstanceOf(CatalogError);
    return err as CatalogError;
  }
  throw new Error('expected a CatalogError');
}

describe('openSource', () => {
  it.each([
    ['an ftp URL', 'ftp://host/export/', 'not a ftp: URL'],
    ['a file URL', 'file:///tmp/catalog', 'not a file: URL'],
    ['an empty string', '', 'is empty'],
    ['a folder that does not exist', '/nonexistent/catalog-folder', 'does not exist'],
  ])('when the location is %s then it is a usage error', (_label, location, message) => {
    const err = usageError(location);
    expect(err.code).toBe('usage');
    expect(err.message).toContain(message);
  });

  it('when the location is a file, not a folder, then it is a usage error', () => {
    const file = path.join(makeTempDir(), 'meta.json');
    fs.writeFileSync(file, '{}');
    expect(usageError(file).message).toContain('is not a folder');
  });

  it.each([
    [{ concurrency: 0 }, 'concurrency must be an integer >= 1'],
    [{ retries: -1 }, 'retries must be an integer >= 0'],
    [{ fetchTimeoutMs: 1.5 }, 'fetchTimeoutMs must be an integer >= 1'],
  ])('when an option is out of range (%o) then the message names it', (options, message) => {
    const err = usageError(makeTempDir(), options);
    expect(err.code).toBe('usage');
    expect(err.message).toContain(message);
  });

  it('when the location is a folder then describe names its absolute path', () => {
    const dir = makeTempDir();
    expect(openSource(dir).describe()).toBe(`folder ${dir}`);
  });
});

describe('source locations', () => {
  it('resolves files under the base URL, with or without its trailing slash, keeping the query', () => {
    const parsed = parseLocation('https://host/api/export?tenant=a');
    if (parsed.kind !== 'http') throw new Error('expected http');
    expect(fileUrl(parsed.base, 'cards.ndjson').href).toBe('https://host/api/export/cards.ndjson?tenant=a');
  });

  it('redacts credentials and query values in URLs shown to users', () => {
    expect(redactUrl(new URL('https://me:pw@host/x/?key=secret'))).toBe('https://***@host/x/?key=***');
  });
});
