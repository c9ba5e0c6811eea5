/**
 * parseStoreLocation / openBlobStore: what `--out`, `--snapshots`, `verify` and `mirror` accept (a
 * folder path or s3://bucket/prefix), and the usage errors, naming the option, for anything else.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openBlobStore, parseStoreLocation } from '../../../snapshots/store/blob-store.js';
import { isCatalogError } from '../../../snapshots/errors.js';
import { tempDir } from '../../helpers/cli.js';

function usageMessage(location: string, option = '--out'): string {
  try {
    parseStoreLocation(location, option);
  } catch (err) {
    if (isCatalogError(err) && err.code === 'usage' && err.exitCode === 64) return err.message;
    throw err;
  }
  throw new Error(`${location} was accepted`);
}

describe('store locations', () => {
  it('reads a plain path as a folder and s3://bucket/prefix as S3 (prefix normalised to end with /)', () => {
    expect(parseStoreLocation('data/snapshots', '--out')).toEqual({ kind: 'folder', path: 'data/snapshots' });
    expect(parseStoreLocation('/srv/snap shots', '--out')).toEqual({ kind: 'folder', path: '/srv/snap shots' });
    expect(parseStoreLocation('s3://snaps', '--out')).toEqual({ kind: 's3', bucket: 'snaps', prefix: '' });
    expect(parseStoreLocation('s3://snaps/', '--out')).toEqual({ kind: 's3', bucket: 'snaps', prefix: '' });
    expect(parseStoreLocation('s3://snaps/catalog', '--out')).toEqual({ kind: 's3', bucket: 'snaps', prefix: 'catalog/' });
    expect(parseStoreLocation('s3://my.snaps-1/a/b/', '--out')).toEqual({ kind: 's3', bucket: 'my.snaps-1', prefix: 'a/b/' });
  });

  it('refuses other schemes, a missing or malformed bucket and unusable prefixes, naming the option', () => {
    expect(usageMessage('s3://')).toBe('--out: s3:// needs a bucket, as in s3://bucket/prefix (got s3://)');
    expect(usageMessage('s3:///prefix', '--snapshots')).toBe('--snapshots: s3:// needs a bucket, as in s3://bucket/prefix (got s3:///prefix)');
    expect(usageMessage('http://example.test/x')).toBe('--out: http:// is not a store; give a folder path or s3://bucket/prefix (got http://example.test/x)');
    expect(usageMessage('S3://snaps')).toContain('S3:// is not a store');
    expect(usageMessage('gs://snaps')).toContain('gs:// is not a store');
    expect(usageMessage('s3://Snaps/x')).toContain('"Snaps" is not a bucket name: 3 to 63 lower-case letters');
    expect(usageMessage('s3://ab')).toContain('"ab" is not a bucket name');
    expect(usageMessage('s3://snaps/../x')).toBe('--out: the prefix of s3://snaps/../x is not usable: a segment starts with . (., .. and hidden names are refused)');
    expect(usageMessage('s3://snaps//x')).toContain('not usable: it starts with /');
    expect(usageMessage('s3://snaps/a//b')).toContain('empty segment');
    expect(usageMessage('')).toBe('--out: give a folder path or s3://bucket/prefix');
  });

  it('opens a folder store for a path, without loading the S3 client', async () => {
    const root = join(tempDir('blob-loc-'), 'snaps');
    const store = await openBlobStore(root, '--out');
    expect(store.location).toBe(root);
    await store.put('current', Buffer.from('x'));
    expect(await store.head('current')).toEqual({ size: 1 });
    await store.close();
  });
});
