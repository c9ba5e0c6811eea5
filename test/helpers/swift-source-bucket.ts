/**
 * A bucket of its own on the shared Swift server (test/helpers/swift.ts) for one test file, filled
 * from a local snapshot root with the BlobStore in publish order (packs, then each snapshot's files,
 * its signature, its manifest, and the pointer last), and emptied and deleted afterwards.
 *
 * @example
 *   const bucket = await swiftBucket('s3read');
 *   await uploadRoot(packed.root, bucket.store('catalog/'));
 *   // … createBlobSnapshotSource({ store: bucket.store('catalog/'), cacheDir })
 *   await bucket.drop();
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createFolderBlobStore } from '../../snapshots/store/blob-fs.js';
import { createS3BlobStore } from '../../snapshots/store/blob-s3.js';
import type { BlobStore } from '../../snapshots/store/blob-store.js';
import { createS3Client } from '../../snapshots/store/s3-client.js';
import { MANIFEST_FILE, MANIFEST_SIGNATURE_FILE, PACKS_DIR } from '../../snapshots/keys.js';
import { CURRENT_JSON } from '../../snapshots/store/pointer.js';
import type { SwiftPlan } from './swift.js';
import { createTestBucket, removeBucket, testBucketName } from './s3-bucket.js';

export interface SwiftBucket {
  name: string;
  /** The AWS_* settings of the server (what `catalog serve` reads from its environment). */
  env: Record<string, string>;
  /** A store on `prefix` ('' or ending in /) of this bucket. */
  store(prefix?: string): BlobStore;
  drop(): Promise<void>;
}

export async function swiftBucket(plan: SwiftPlan, tag: string): Promise<SwiftBucket> {
  const started = await plan.start();
  const env = started.env;
  const name = testBucketName(`catalog-${tag}`);
  const { client } = createS3Client(env);
  await createTestBucket(client, name);
  return {
    name,
    env,
    store: (prefix = '') => createS3BlobStore({ bucket: name, prefix, env }),
    async drop() {
      await removeBucket(client, name);
      client.destroy();
      started.stop();
    },
  };
}

/** Where a key falls in publish order: packs, snapshot files, signature, manifest, pointer. */
function publishRank(key: string): number {
  if (key.startsWith(`${PACKS_DIR}/`)) return 0;
  if (key === CURRENT_JSON) return 4;
  if (key.endsWith(`/${MANIFEST_FILE}`)) return 3;
  if (key.endsWith(`/${MANIFEST_SIGNATURE_FILE}`)) return 2;
  return 1;
}

/** Copies every file of a snapshot root (not the `current` symlink: S3 has none) into `store`. */
export async function uploadRoot(root: string, store: BlobStore, options: { skip?: (key: string) => boolean } = {}): Promise<string[]> {
  const keys: string[] = [];
  for await (const b of createFolderBlobStore(root).list('')) if (!options.skip?.(b.key)) keys.push(b.key);
  keys.sort((a, b) => publishRank(a) - publishRank(b) || (a < b ? -1 : a > b ? 1 : 0));
  for (let i = 0; i < keys.length; i += 8) {
    // Files of one rank go up eight at a time; ranks stay in order (the manifest after its files).
    const batch = keys.slice(i, i + 8);
    const ranks = new Set(batch.map(publishRank));
    if (ranks.size > 1) {
      for (const key of batch) await store.put(key, createReadStream(join(root, key)));
    } else {
      await Promise.all(batch.map((key) => store.put(key, createReadStream(join(root, key)))));
    }
  }
  return keys;
}
