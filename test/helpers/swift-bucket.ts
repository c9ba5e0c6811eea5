/**
 * A bucket of its own on the shared Swift server for one test file, removed with everything in it
 * after: single DELETEs (Swift's bulk delete wants a Content-MD5 the SDK does not send).
 */
import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, DeleteBucketCommand, DeleteObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { createS3Client } from '../../snapshots/store/s3-client.js';

export interface TestBucket {
  name: string;
  client: S3Client;
  remove(): Promise<void>;
}

export async function createTestBucket(env: Record<string, string>, tag: string): Promise<TestBucket> {
  const name = `${tag}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const { client } = createS3Client(env);
  await client.send(new CreateBucketCommand({ Bucket: name }));
  return {
    name,
    client,
    async remove() {
      for (let token: string | undefined, more = true; more; ) {
        const page = await client.send(new ListObjectsV2Command({ Bucket: name, ContinuationToken: token }));
        await Promise.all((page.Contents ?? []).map((o) => client.send(new DeleteObjectCommand({ Bucket: name, Key: o.Key }))));
        token = page.NextContinuationToken;
        more = page.IsTruncated === true;
      }
      await client.send(new DeleteBucketCommand({ Bucket: name }));
      client.destroy();
    },
  };
}
