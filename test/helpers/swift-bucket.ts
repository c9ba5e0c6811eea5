/**
 * A bucket of its own on the shared Swift server for one test file, removed with everything in it
 * after: single DELETEs (Swift's bulk delete wants a Content-MD5 the SDK does not send).
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { createS3Client } from '../../snapshots/store/s3-client.js';
import { createTestBucket as createBucket, removeBucket, testBucketName } from './s3-bucket.js';

export interface TestBucket {
  name: string;
  client: S3Client;
  remove(): Promise<void>;
}

export async function createTestBucket(env: Record<string, string>, tag: string): Promise<TestBucket> {
  const name = testBucketName(tag);
  const { client } = createS3Client(env);
  await createBucket(client, name);
  return {
    name,
    client,
    async remove() {
      await removeBucket(client, name);
      client.destroy();
    },
  };
}
