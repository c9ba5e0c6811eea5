/**
 * The S3 store: objects under `prefix` in one bucket of any S3-compatible server, written with the
 * portable subset of S3 that AWS S3, R2, Ceph and Swift's S3 layer all implement: plain and
 * multipart PUTs (no conditional PUT), ranged GETs, HEAD, ListObjectsV2 pages, single DELETEs
 * (Swift's bulk delete insists on a Content-MD5 the SDK does not send).
 *
 * @example
 *   const store = createS3BlobStore({ bucket: 'snapshots', prefix: 'catalog/' });  // settings from AWS_*
 *   await store.put('packs/3f/3fa1.pack', createReadStream(tmp));  // multipart above partSize
 *   await store.getRange('packs/3f/3fa1.pack', 4096, 1200);        // GET with Range: bytes=4096-5295
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { CatalogError } from '../errors.js';
import {
  BUCKET_RULE,
  checkKey,
  checkPrefix,
  checkRange,
  isBucketName,
  rangeOutside,
  type BlobInfo,
  type BlobStore,
} from './blob-store.js';
import { createS3Client } from './s3-client.js';
import { isNoSuchKey, s3Error } from './s3-errors.js';

const MiB = 1024 * 1024;
/** S3's smallest part (all but the last); Swift's S3 layer enforces the same. */
const MIN_PART_SIZE = 5 * MiB;

export interface S3BlobStoreOptions {
  bucket: string;
  /** '' or a prefix ending in `/` under which every key is stored. */
  prefix?: string;
  /** The AWS_* settings the client is made from (s3-client.ts). Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Keys per ListObjectsV2 page, 1 to 1000. Default 1000 (S3's maximum). */
  pageSize?: number;
  /**
   * Bodies larger than this (or streams that turn out so) go up as a multipart upload of parts this
   * size, at most `queueSize` in flight: memory is bounded by partSize × queueSize whatever the
   * body. At least 5 MiB. Default 16 MiB: a 500 MiB pack is 32 parts.
   */
  partSize?: number;
  /** Parts uploaded at once. Default 4. */
  queueSize?: number;
}

function checkOptions(o: S3BlobStoreOptions): Required<Omit<S3BlobStoreOptions, 'env'>> {
  const bad = (option: string, rule: string, got: unknown) =>
    new CatalogError('usage', `createS3BlobStore: ${option} must be ${rule}, got ${JSON.stringify(got)}`, { option });
  if (!isBucketName(o.bucket)) throw bad('bucket', `a bucket name (${BUCKET_RULE})`, o.bucket);
  const prefix = o.prefix ?? '';
  if (prefix !== '') {
    if (!prefix.endsWith('/')) throw bad('prefix', "'' or end with /", prefix);
    checkPrefix(prefix);
  }
  const pageSize = o.pageSize ?? 1000;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) throw bad('pageSize', 'a whole number from 1 to 1000', o.pageSize);
  const partSize = o.partSize ?? 16 * MiB;
  if (!Number.isInteger(partSize) || partSize < MIN_PART_SIZE) throw bad('partSize', `a whole number of bytes >= ${MIN_PART_SIZE}`, o.partSize);
  const queueSize = o.queueSize ?? 4;
  if (!Number.isInteger(queueSize) || queueSize < 1 || queueSize > 64) throw bad('queueSize', 'a whole number from 1 to 64', o.queueSize);
  return { bucket: o.bucket, prefix, pageSize, partSize, queueSize };
}

/** The total size in a `Content-Range: bytes a-b/total` header, when the server sent one. */
function totalOf(contentRange: string | undefined): number | null {
  const m = /\/(\d+)\s*$/.exec(contentRange ?? '');
  return m ? Number(m[1]) : null;
}

async function bodyBytes(out: GetObjectCommandOutput): Promise<Buffer> {
  const bytes = await out.Body!.transformToByteArray();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const { bucket, prefix, pageSize, partSize, queueSize } = checkOptions(options);
  const { client, endpoint } = createS3Client(options.env ?? process.env);
  const location = `s3://${bucket}/${prefix}`;
  const context = (what: string) => ({ what, location, endpoint, bucket });
  let bucketSeen = false;
  const keyOf = (key: string) => {
    checkKey(key);
    return prefix + key;
  };
  /** Runs one request; a missing object is `missing`, other failures CatalogErrors. */
  const send = async <T, M>(what: string, request: () => Promise<T>, missing: M): Promise<T | M> => {
    try {
      return await request();
    } catch (err) {
      if (isNoSuchKey(err)) return missing;
      throw s3Error(err, context(what));
    }
  };

  const store: BlobStore = {
    location,
    async put(key, body, putOptions = {}) {
      const Key = keyOf(key);
      // Upload sends one PutObject when the body fits in one part, else a multipart upload, which
      // it aborts if a part fails (leavePartsOnError false): no object appears under Key until
      // CompleteMultipartUpload, so readers never see a partial one.
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key, Body: body, ContentType: putOptions.contentType },
        partSize,
        queueSize,
        leavePartsOnError: false,
      });
      await send(`put ${key}`, () => upload.done(), null);
    },
    async get(key) {
      const Key = keyOf(key);
      return send(`get ${key}`, async () => bodyBytes(await client.send(new GetObjectCommand({ Bucket: bucket, Key }))), null);
    },
    async getRange(key, offset, length) {
      const Key = keyOf(key);
      checkRange(key, offset, length);
      const Range = `bytes=${offset}-${offset + length - 1}`;
      let out: GetObjectCommandOutput | null;
      try {
        out = await send(`get ${key} (${Range})`, () => client.send(new GetObjectCommand({ Bucket: bucket, Key, Range })), null);
      } catch (err) {
        // 416: the range starts at or past the end; say how big the object is.
        if (err instanceof CatalogError && (err.cause as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode === 416) {
          const size = (await store.head(key))?.size;
          if (size === undefined) return null;
          throw rangeOutside(key, offset, length, size);
        }
        throw err;
      }
      if (out === null) return null;
      const bytes = await bodyBytes(out);
      // A range that runs past the end comes back shorter (206 with the rest of the object).
      if (bytes.length !== length) throw rangeOutside(key, offset, length, totalOf(out.ContentRange) ?? offset + bytes.length);
      return bytes;
    },
    async head(key) {
      const Key = keyOf(key);
      const out = await send(`head ${key}`, () => client.send(new HeadObjectCommand({ Bucket: bucket, Key })), null);
      if (out !== null) return { size: out.ContentLength ?? 0 };
      // A HEAD's 404 has no body to tell a missing key from a missing bucket; without this a wrong
      // bucket would read as "nothing published yet". Asked once per store, on the first miss.
      if (!bucketSeen) {
        const found = await send(`head ${key}`, () => client.send(new HeadBucketCommand({ Bucket: bucket })), null);
        if (found === null) throw s3Error(Object.assign(new Error('no such bucket'), { name: 'NoSuchBucket' }), context(`head ${key}`));
        bucketSeen = true;
      }
      return null;
    },
    async *list(listPrefix): AsyncGenerator<BlobInfo> {
      checkPrefix(listPrefix);
      let token: string | undefined;
      do {
        const page = await send(`list ${listPrefix || '(all)'}`, () =>
          client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix + listPrefix, MaxKeys: pageSize, ContinuationToken: token })),
        null);
        if (page === null) return;
        for (const item of page.Contents ?? []) {
          if (item.Key !== undefined) yield { key: item.Key.slice(prefix.length), size: item.Size ?? 0 };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async delete(key) {
      const Key = keyOf(key);
      await send(`delete ${key}`, () => client.send(new DeleteObjectCommand({ Bucket: bucket, Key })), null);
    },
    async close() {
      client.destroy();
    },
  };
  return store;
}
