/**
 * The SnapshotSource a `--snapshots` location names: a folder (fs.ts, exactly as before: the
 * `current` symlink resolved every 250 ms by the proxy) or `s3://bucket/prefix` (blob-source.ts,
 * settings from the AWS_* environment, `current.json` polled every `pollMs`, the snapshots' index
 * and search files copied into `cacheDir`). The S3 SDK is loaded only for an s3:// location.
 *
 * @example
 *   const source = await openSnapshotSource('s3://snaps/catalog', { cacheDir: '/var/cache/catalog', env: process.env });
 */
import { parseStoreLocation } from './blob-store.js';
import { createFsSnapshotSource } from './fs.js';
import type { SnapshotSource } from './types.js';

export interface SnapshotSourceOptions {
  /** Local folder of an object store's snapshot files (unused for a folder). */
  cacheDir: string;
  /** How often an object store's `current.json` is read, in ms (default 5 s). */
  pollMs?: number;
  /** The AWS_* settings (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Told when a snapshot of the object store cannot be fetched. */
  onError?: (err: unknown, snapshotId: string) => void;
  /** The option the location came from, for messages (default --snapshots). */
  option?: string;
}

export async function openSnapshotSource(location: string, options: SnapshotSourceOptions): Promise<SnapshotSource> {
  const where = parseStoreLocation(location, options.option ?? '--snapshots');
  if (where.kind === 'folder') return createFsSnapshotSource(where.path);
  const [{ createS3BlobStore }, { createBlobSnapshotSource }] = await Promise.all([import('./blob-s3.js'), import('./blob-source.js')]);
  return createBlobSnapshotSource({
    store: createS3BlobStore({ bucket: where.bucket, prefix: where.prefix, env: options.env }),
    cacheDir: options.cacheDir,
    pollMs: options.pollMs,
    onError: options.onError,
  });
}
