/**
 * A bucket of its own for an S3 test, on the real server (test/helpers/swift.ts), removed with
 * everything in it after.
 *
 * @example
 *   const bucket = await createTestBucket(client, 'wt-verify');   // 'wt-verify-1234-a1b2c3'
 *   afterAll(() => removeBucket(client, bucket));
 */
import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, DeleteBucketCommand, DeleteObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';

/** A bucket name no other test run uses: `name`, the process id and a random suffix. */
export function testBucketName(name: string): string {
  return `${name}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

export async function createTestBucket(client: S3Client, bucket: string): Promise<void> {
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
}

/** Deletes every object (single deletes: Swift's bulk delete wants a Content-MD5 the SDK does not send), then the bucket. */
export async function removeBucket(client: S3Client, bucket: string): Promise<void> {
  for (let token: string | undefined, more = true; more; ) {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
    await Promise.all((page.Contents ?? []).map((o) => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: o.Key }))));
    token = page.NextContinuationToken;
    more = page.IsTruncated === true;
  }
  await client.send(new DeleteBucketCommand({ Bucket: bucket }));
}
