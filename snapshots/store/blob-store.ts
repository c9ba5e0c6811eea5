/**
 * The object store a snapshot root lives in (issue 17): a local folder (the embedded default) or
 * any S3-compatible bucket, behind one small interface. Objects are written once under keys that
 * name their content; the one exception is the `current` pointer, overwritten by each publish, and
 * written last so that a reader never follows it to something missing. Neither store has a
 * conditional PUT we can rely on (Swift's S3 layer answers 501), so publish order is what makes
 * it atomic, not a compare-and-swap.
 *
 * @example
 *   const store = await openBlobStore('s3://snapshots/catalog', '--out');   // or '/srv/snapshots'
 *   await store.put('packs/3f/3fa1….pack', createReadStream(tmpPack));
 *   const bytes = await store.getRange('packs/3f/3fa1….pack', 1024, 512);  // 512 bytes at 1024
 */
import type { Readable } from 'node:stream';
import { CatalogError } from '../errors.js';

export interface BlobInfo {
  key: string;
  size: number;
}

export interface PutOptions {
  /** Stored with the object where the store keeps it (S3); the folder store ignores it. */
  contentType?: string;
}

export interface BlobStore {
  /** Where it is, for messages: the folder path or `s3://bucket/prefix`. */
  readonly location: string;
  /** Writes `key` whole: readers see the previous object or the new one, never a part of it. */
  put(key: string, body: Buffer | Readable, options?: PutOptions): Promise<void>;
  /** The whole object, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /**
   * `length` bytes from `offset`, read without reading the rest of the object; null when there is
   * no object. A range that does not lie inside the object is a `range_not_satisfiable` error.
   */
  getRange(key: string, offset: number, length: number): Promise<Buffer | null>;
  /** The object's size, or null when there is none. */
  head(key: string): Promise<{ size: number } | null>;
  /** Every object whose key starts with `prefix`, in key order, fetched a page at a time. */
  list(prefix: string): AsyncIterable<BlobInfo>;
  /** Removes `key`; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Releases connections and handles. */
  close(): Promise<void>;
}

/** S3 keys are at most 1024 bytes; the folder store keeps the same limit so keys move between stores. */
const MAX_KEY_BYTES = 1024;
// Control characters break paths, listings and logs alike.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * A key is `/`-separated segments, none empty and none starting with `.` (so no `.` or `..`; the
 * folder store keeps its temporary files under such names, where no key can reach them), without
 * backslashes or control characters. Checked before a key becomes a path or an S3 key.
 *
 * @example
 *   checkKey('packs/3f/3fa1.pack')   // fine
 *   checkKey('../etc/passwd')         // throws CatalogError invalid_parameter
 */
export function checkKey(key: string): void {
  const problem = keyProblem(key, false);
  if (problem) throw new CatalogError('invalid_parameter', `not a valid object key ${JSON.stringify(key)}: ${problem}`, { key });
}

/** As checkKey, but '' (everything) and a trailing `/` or partial last segment are allowed. */
export function checkPrefix(prefix: string): void {
  if (prefix === '') return;
  const problem = keyProblem(prefix, true);
  if (problem) throw new CatalogError('invalid_parameter', `not a valid key prefix ${JSON.stringify(prefix)}: ${problem}`, { prefix });
}

function keyProblem(key: string, isPrefix: boolean): string | null {
  if (typeof key !== 'string' || key === '') return 'it is empty';
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) return `longer than ${MAX_KEY_BYTES} bytes`;
  if (key.startsWith('/')) return 'it starts with /';
  if (key.includes('\\')) return 'it contains a backslash';
  if (CONTROL.test(key)) return 'it contains a control character';
  const segments = key.split('/');
  if (isPrefix && segments.at(-1) === '') segments.pop();
  if (segments.some((s) => s === '')) return 'it has an empty segment (//)';
  if (segments.some((s) => s.startsWith('.'))) return 'a segment starts with . (., .. and hidden names are refused)';
  return null;
}

/**
 * The range checks both stores share: whole numbers, a length of at least 1.
 *
 * @example
 *   checkRange('a.pack', 0, 10)   // fine
 *   checkRange('a.pack', -1, 10)  // throws CatalogError invalid_parameter
 */
export function checkRange(key: string, offset: number, length: number): void {
  if (!Number.isSafeInteger(offset) || offset < 0 || !Number.isSafeInteger(length) || length < 1) {
    throw new CatalogError('invalid_parameter', `${key}: a byte range needs a whole offset >= 0 and a whole length >= 1 (got ${offset}, ${length})`, { key });
  }
}

/**
 * The error for a range that does not lie inside an object of `size` bytes.
 *
 * @example
 *   throw rangeOutside('a.pack', 90, 20, 100)  // "a.pack: bytes 90-109 are not inside the object (100 bytes)"
 */
export function rangeOutside(key: string, offset: number, length: number, size: number): CatalogError {
  return new CatalogError(
    'range_not_satisfiable',
    `${key}: bytes ${offset}-${offset + length - 1} are not inside the object (${size} bytes)`,
    { key, offset, length, size },
  );
}

export type StoreLocation = { kind: 'folder'; path: string } | { kind: 's3'; bucket: string; prefix: string };

// A bucket name as S3, R2, Ceph and Swift's S3 layer all accept it (AWS's rules for new buckets).
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
export const BUCKET_RULE = '3 to 63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit';

/**
 * @example
 *   isBucketName('snapshots')  // true
 *   isBucketName('Snapshots')  // false
 */
export function isBucketName(name: string): boolean {
  return typeof name === 'string' && BUCKET.test(name);
}
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//;

/**
 * What a `--out`, `--snapshots`, `verify` or `mirror` location names: a folder path, or
 * `s3://bucket/prefix` (the prefix may be empty). Anything else is a usage error naming `option`.
 *
 * @example
 *   parseStoreLocation('/srv/snapshots', '--out')          // { kind: 'folder', path: '/srv/snapshots' }
 *   parseStoreLocation('s3://snaps/catalog/', '--out')     // { kind: 's3', bucket: 'snaps', prefix: 'catalog/' }
 *   parseStoreLocation('s3://', '--out')                   // throws: --out: s3:// needs a bucket ...
 */
export function parseStoreLocation(location: string, option: string): StoreLocation {
  const usage = (why: string) => new CatalogError('usage', `${option}: ${why}`, { option });
  if (typeof location !== 'string' || location.trim() === '') throw usage('give a folder path or s3://bucket/prefix');
  const scheme = SCHEME.exec(location)?.[1];
  if (scheme === undefined) return { kind: 'folder', path: location };
  if (scheme !== 's3') throw usage(`${scheme}:// is not a store; give a folder path or s3://bucket/prefix (got ${location})`);
  const rest = location.slice('s3://'.length);
  const slash = rest.indexOf('/');
  const bucket = slash === -1 ? rest : rest.slice(0, slash);
  if (bucket === '') throw usage(`s3:// needs a bucket, as in s3://bucket/prefix (got ${location})`);
  if (!isBucketName(bucket)) throw usage(`${JSON.stringify(bucket)} is not a bucket name: ${BUCKET_RULE} (got ${location})`);
  let prefix = slash === -1 ? '' : rest.slice(slash + 1);
  if (prefix !== '' && !prefix.endsWith('/')) prefix += '/';
  const problem = prefix === '' ? null : keyProblem(prefix, true);
  if (problem) throw usage(`the prefix of ${location} is not usable: ${problem}`);
  return { kind: 's3', bucket, prefix };
}

/**
 * The store a location names. The S3 client is loaded only for `s3://` locations, so commands on a
 * folder do not pay for the SDK; its settings come from the AWS_* environment (blob-s3.ts).
 *
 * @example
 *   const store = await openBlobStore(opts.out, '--out');
 */
export async function openBlobStore(location: string, option: string): Promise<BlobStore> {
  const where = parseStoreLocation(location, option);
  if (where.kind === 'folder') {
    const { createFolderBlobStore } = await import('./blob-fs.js');
    return createFolderBlobStore(where.path);
  }
  const { createS3BlobStore } = await import('./blob-s3.js');
  return createS3BlobStore({ bucket: where.bucket, prefix: where.prefix });
}
