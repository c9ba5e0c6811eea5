/**
 * The S3 store (snapshots/store/blob-s3.ts) against a real S3-compatible server: OpenStack Swift
 * with s3api on loopback, started by scripts/servers/swift.sh (test/helpers/swift.ts). The
 * BlobStore contract, then what only S3 shows: multipart uploads, the error messages an operator
 * gets for a wrong endpoint, credentials or bucket, and a CLI-clean stderr.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3BlobStore } from '../../../snapshots/store/blob-s3.js';
import { createS3Client } from '../../../snapshots/store/s3-client.js';
import { openBlobStore } from '../../../snapshots/store/blob-store.js';
import { isCatalogError } from '../../../snapshots/errors.js';
import { REPO } from '../../helpers/cli.js';
import { swiftPlan } from '../../helpers/swift.js';
import { createTestBucket, type TestBucket } from '../../helpers/swift-bucket.js';
import { blobStoreContract, PAGE_SIZE, PART_SIZE } from './blob-store.contract.js';

const plan = swiftPlan();
if (plan.unavailable) console.warn(`blob-s3.test.ts: ${plan.unavailable}`);
const suite = plan.unavailable ? describe.skip : describe;

/** Every AWS_* setting of the test server, the rest of the environment left out of the SDK's view. */
let env: Record<string, string> = {};
let stopSwift = () => {};
let client: S3Client;
let testBucket: TestBucket | undefined;
let bucket = '';
let prefixes = 0;

async function catalogErrorOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    if (isCatalogError(err)) return err;
    throw err;
  }
  throw new Error('expected a CatalogError');
}

suite('S3 store on OpenStack Swift (s3api)', () => {
  beforeAll(async () => {
    const started = await plan.start();
    env = started.env;
    stopSwift = started.stop;
    testBucket = await createTestBucket(env, 'catalog-test');
    ({ client, name: bucket } = testBucket);
  });

  afterAll(async () => {
    await testBucket?.remove();
    stopSwift();
  });

  const fresh = async () =>
    createS3BlobStore({ bucket, prefix: `t${++prefixes}/`, env, pageSize: PAGE_SIZE, partSize: PART_SIZE });

  blobStoreContract('S3 (Swift)', fresh);

  it('sends a body larger than one part as a multipart upload (ETag of 3 parts) and reads ranges across its parts', async () => {
    const store = await fresh();
    const body = randomBytes(2 * PART_SIZE + 1000);
    await store.put('packs/multi.pack', body);
    const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: `t${prefixes}/packs/multi.pack` }));
    expect(head.ETag).toMatch(/-3"$/);
    const across = await store.getRange('packs/multi.pack', PART_SIZE - 10, PART_SIZE + 20);
    // Buffer.equals: vitest's toEqual walks a 5 MiB buffer element by element (tens of seconds).
    expect(across!.equals(body.subarray(PART_SIZE - 10, 2 * PART_SIZE + 10))).toBe(true);
    await store.close();
  });

  it('opens s3://bucket/prefix from the AWS_* environment, keys under the prefix', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      const store = await openBlobStore(`s3://${bucket}/opened/here`, '--out');
      expect(store.location).toBe(`s3://${bucket}/opened/here/`);
      await store.put('current', Buffer.from('x'));
      const raw = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: 'opened/here/current' }));
      expect(raw.ContentLength).toBe(1);
      await store.close();
    } finally {
      process.env = saved;
    }
  });

  it('names what to set when the endpoint is unreachable, the credentials are refused or the bucket is missing', async () => {
    const unreachable = createS3BlobStore({ bucket, env: { ...env, AWS_ENDPOINT_URL: 'http://127.0.0.1:9' } });
    const down = await catalogErrorOf(unreachable.head('x'));
    expect(down.code).toBe('unavailable');
    expect(down.message).toContain('cannot reach the S3 endpoint http://127.0.0.1:9 (ECONNREFUSED); check AWS_ENDPOINT_URL');

    const wrongKey = createS3BlobStore({ bucket, env: { ...env, AWS_SECRET_ACCESS_KEY: 'wrong' } });
    const refused = await catalogErrorOf(wrongKey.put('x', Buffer.from('x')));
    expect(refused.code).toBe('forbidden');
    expect(refused.exitCode).toBe(77);
    expect(refused.message).toContain('refused the credentials');
    expect(refused.message).toContain('check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY');

    const noBucket = createS3BlobStore({ bucket: 'no-such-bucket-here', env });
    const missing = await catalogErrorOf(noBucket.put('x', Buffer.from('x')));
    expect(missing.code).toBe('config');
    expect(missing.message).toBe(
      `s3://no-such-bucket-here/: put x: the bucket no-such-bucket-here does not exist at ${env.AWS_ENDPOINT_URL}; create it, or fix the bucket of the s3:// location (and AWS_ENDPOINT_URL)`,
    );
    // A HEAD's 404 alone cannot tell a missing bucket from a missing key: the store asks.
    const headMissing = await catalogErrorOf(noBucket.head('current'));
    expect(headMissing.code).toBe('config');
    expect(headMissing.message).toContain('the bucket no-such-bucket-here does not exist');
    await Promise.all([unreachable.close(), wrongKey.close(), noBucket.close()]);
  });

  it('keeps stderr clean of the SDK NodeVersionSupportWarning and lets other warnings through', () => {
    const script = `
      const { createS3Client } = await import(${JSON.stringify(`${REPO}/dist/snapshots/store/s3-client.js`)});
      createS3Client(process.env).client.destroy();
      process.emitWarning('another warning');`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, ...env }, encoding: 'utf8' });
    expect(child.status).toBe(0);
    expect(child.stderr).not.toContain('NodeVersionSupportWarning');
    expect(child.stderr).toContain('Warning: another warning');
  });
});

describe('S3 settings', () => {
  it('refuses an AWS_S3_FORCE_PATH_STYLE other than true or false, naming it', () => {
    expect(() => createS3Client({ AWS_S3_FORCE_PATH_STYLE: 'yes' })).toThrow('AWS_S3_FORCE_PATH_STYLE must be true or false, got "yes"');
  });

  it('says to set AWS_REGION when no region is configured anywhere (before any request is sent)', async () => {
    const saved = { ...process.env };
    // No shared config file either: the SDK would take a region from there.
    Object.assign(process.env, { AWS_CONFIG_FILE: '/nonexistent', AWS_SHARED_CREDENTIALS_FILE: '/nonexistent' });
    delete process.env.AWS_REGION;
    delete process.env.AWS_DEFAULT_REGION;
    try {
      const store = createS3BlobStore({ bucket: 'snaps', env: { AWS_ENDPOINT_URL: 'http://127.0.0.1:9', AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' } });
      const err = await catalogErrorOf(store.head('x'));
      expect(err.message).toBe('s3://snaps/: head x: no region; set AWS_REGION (us-east-1 for most S3-compatible servers)');
      expect(err.exitCode).toBe(78);
      await store.close();
    } finally {
      process.env = saved;
    }
  });

  it('validates the store options once, at construction, naming the option', () => {
    const env = { AWS_REGION: 'us-east-1' };
    expect(() => createS3BlobStore({ bucket: 'B', env })).toThrow('createS3BlobStore: bucket must be a bucket name');
    expect(() => createS3BlobStore({ bucket: 'ok-bucket', prefix: 'no-slash', env })).toThrow("prefix must be '' or end with /");
    expect(() => createS3BlobStore({ bucket: 'ok-bucket', pageSize: 0, env })).toThrow('pageSize must be a whole number from 1 to 1000');
    expect(() => createS3BlobStore({ bucket: 'ok-bucket', partSize: 1024, env })).toThrow('partSize must be a whole number of bytes >= 5242880');
    expect(() => createS3BlobStore({ bucket: 'ok-bucket', env: { AWS_S3_FORCE_PATH_STYLE: '1' } })).toThrow('AWS_S3_FORCE_PATH_STYLE must be true or false, got "1"');
  });
});
