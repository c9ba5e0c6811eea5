/**
 * Publishes one packed snapshot of a local snapshot root to a BlobStore (an S3 bucket, or a folder),
 * atomic by order, since no store here has a conditional PUT (blob-store.ts):
 *   1. every pack the manifest lists that the store lacks (one listing of `packs/`, several uploads
 *      in parallel, multipart above a part: each pack's name exists only once it is complete);
 *   2. the snapshot's files (objects.sqlite, search.sqlite, changes.ndjson, bulk files);
 *   3. a HEAD of every pack and file: the size the manifest says, or nothing more is written;
 *   4. the signature, then the manifest (its presence marks the snapshot complete), both HEAD-checked;
 *   5. `current.json`, last.
 * A reader following `current.json` therefore always finds a complete snapshot, and a publish killed
 * at any point leaves the pointer on the last complete one; running it again finishes the job (packs
 * already there are not sent again).
 *
 * Which packs the store has: one LIST of `packs/` (a page per 1,000 packs) rather than a HEAD per pack:
 * measured on Swift (docs/benchmarks.md, "Publishing to an object store") one listing costs about
 * what 1-2 HEADs do, and a snapshot references tens to hundreds of packs. `packCheck: 'head'` is kept
 * for stores where listing is not allowed.
 *
 * @example
 *   const s = await publishToStore({ from: 'data/snapshots', snapshotId: id, store, progress });
 *   s.packs.uploaded  // 1 after an incremental compile: only the new pack went up
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline, Transform } from 'node:stream';
import pLimit from 'p-limit';
import { CatalogError } from '../errors.js';
import { PACKS_DIR } from '../keys.js';
import type { BlobStore } from './blob-store.js';
import { isSnapshotId } from './pointer.js';
import { manifestKey, parsePackedManifest, signatureKey, snapshotContents, type StoredFile } from './publish-contents.js';
import { writeStoreCurrent } from './publish-pointer.js';
import { silentStoreProgress, type StoreProgress } from './publish-progress.js';

export interface PublishOptions {
  /** The local snapshot root that holds `<snapshotId>/` and `packs/`. */
  from: string;
  snapshotId: string;
  store: BlobStore;
  progress?: StoreProgress;
  /**
   * Uploads at once (default 3). With the S3 store's 16 MiB parts, 4 in flight per upload, memory is
   * bounded by 3 × 64 MiB whatever the pack sizes.
   */
  concurrency?: number;
  /** How the packs the store has are found: one listing of `packs/` (default) or a HEAD per pack. */
  packCheck?: 'list' | 'head';
  /** Move `current.json` (default true); false uploads a complete snapshot without switching to it. */
  switchPointer?: boolean;
}

export interface PublishSummary {
  snapshotId: string;
  packs: { listed: number; uploaded: number; present: number; bytes: number };
  files: { uploaded: number; bytes: number };
  /** Objects written to the store: packs, files, signature, manifest, pointer. */
  objects: number;
  bytes: number;
  durationMs: number;
}

const MANIFEST_TYPE = 'application/x-ndjson';

export async function publishToStore(options: PublishOptions): Promise<PublishSummary> {
  const { from, snapshotId, store } = options;
  const progress = options.progress ?? silentStoreProgress;
  const limit = pLimit(options.concurrency ?? 3);
  const started = Date.now();
  if (!isSnapshotId(snapshotId)) throw new CatalogError('usage', `not a snapshot id: ${JSON.stringify(snapshotId)}`);
  const localPath = (key: string) => join(from, key); // keys are checked (publish-contents.ts) before they get here
  const manifestPath = localPath(manifestKey(snapshotId));
  const manifestBytes = await readLocal(manifestPath, snapshotId, from);
  const contents = snapshotContents(parsePackedManifest(manifestBytes, manifestPath), manifestPath);
  if (contents.snapshotId !== snapshotId) {
    throw new CatalogError('corrupt_object', `${manifestPath} names snapshot ${contents.snapshotId}, not ${snapshotId}; run catalog verify ${from}`);
  }
  const signatureBytes = await readFile(localPath(signatureKey(snapshotId))).catch((err) => (err.code === 'ENOENT' ? null : Promise.reject(err)));
  await checkLocalSizes([...contents.packs, ...contents.files], localPath, from, limit);

  const summary: PublishSummary = {
    snapshotId,
    packs: { listed: contents.packs.length, uploaded: 0, present: 0, bytes: 0 },
    files: { uploaded: 0, bytes: 0 },
    objects: 0,
    bytes: 0,
    durationMs: 0,
  };
  const upload = async (file: StoredFile, contentType?: string) => {
    // Bytes as the upload takes them (multipart reads at most a few parts ahead). A 'data' listener on
    // the file stream would start it flowing before the store reads it, losing the first chunks.
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        progress.advance(chunk.length);
        done(null, chunk);
      },
    });
    const body = pipeline(createReadStream(localPath(file.key)), counter, () => undefined);
    await store.put(file.key, body, { contentType });
    summary.objects++;
    summary.bytes += file.size;
  };

  // 1. Packs the store lacks (a pack of another size under the same name is sent again: the name is
  // the hash of the content, so the right bytes are what belongs there).
  const have = await storePackSizes(store, contents.packs, options.packCheck ?? 'list', limit);
  const missing = contents.packs.filter((p) => have.get(p.key) !== p.size);
  summary.packs.present = contents.packs.length - missing.length;
  const packBytes = missing.reduce((n, p) => n + p.size, 0);
  progress.phase(`upload packs (${missing.length} of ${contents.packs.length}, bytes)`, packBytes);
  await Promise.all(missing.map((p) => limit(() => upload(p))));
  summary.packs.uploaded = missing.length;
  summary.packs.bytes = packBytes;

  // 2. The snapshot's files.
  const fileBytes = contents.files.reduce((n, f) => n + f.size, 0);
  progress.phase(`upload snapshot files (${contents.files.length}, bytes)`, fileBytes);
  await Promise.all(contents.files.map((f) => limit(() => upload(f, f.key.endsWith('.ndjson') ? MANIFEST_TYPE : undefined))));
  summary.files.uploaded = contents.files.length;
  summary.files.bytes = fileBytes;

  // 3. Everything the manifest will vouch for is there, at its size, before the manifest exists.
  progress.phase('check uploaded sizes (objects)', contents.packs.length + contents.files.length);
  await checkStoreSizes(store, [...contents.packs, ...contents.files], limit, progress);

  // 4. Signature, then the manifest: the manifest's presence is what marks the snapshot complete.
  const own = (key: string, bytes: Buffer): StoredFile => ({ key, size: bytes.length, sha256: '' });
  const tail = [...(signatureBytes ? [own(signatureKey(snapshotId), signatureBytes)] : []), own(manifestKey(snapshotId), manifestBytes)];
  progress.phase('upload signature and manifest (objects)', tail.length + 1);
  if (signatureBytes) await putChecked(store, tail[0], signatureBytes, 'application/json');
  await putChecked(store, tail.at(-1)!, manifestBytes, MANIFEST_TYPE);
  summary.objects += tail.length;
  summary.bytes += tail.reduce((n, t) => n + t.size, 0);
  progress.advance(tail.length);

  // 5. The pointer, last.
  if (options.switchPointer !== false) {
    await writeStoreCurrent(store, snapshotId);
    summary.objects++;
    progress.advance(1);
  }
  summary.durationMs = Date.now() - started;
  return summary;
}

async function readLocal(path: string, snapshotId: string, from: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    throw new CatalogError('not_found', `${from} has no complete snapshot ${snapshotId} (no ${path}); compile it first, or name one that exists`, { snapshotId });
  }
}

/** Every local file at the size the manifest says, before anything is sent. */
async function checkLocalSizes(files: StoredFile[], localPath: (key: string) => string, from: string, limit: ReturnType<typeof pLimit>): Promise<void> {
  await Promise.all(
    files.map((f) =>
      limit(async () => {
        const size = await stat(localPath(f.key)).then((s) => s.size, () => null);
        if (size !== f.size) {
          throw new CatalogError(
            'corrupt_object',
            `${localPath(f.key)} is ${size === null ? 'missing' : `${size} bytes`}, the manifest says ${f.size}; nothing was published: run catalog verify ${from}`,
            { key: f.key },
          );
        }
      }),
    ),
  );
}

/** The sizes of the given packs in the store, from one listing of `packs/` or a HEAD each. */
async function storePackSizes(store: BlobStore, packs: StoredFile[], how: 'list' | 'head', limit: ReturnType<typeof pLimit>): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  if (packs.length === 0) return sizes;
  if (how === 'list') {
    for await (const item of store.list(`${PACKS_DIR}/`)) sizes.set(item.key, item.size);
    return sizes;
  }
  await Promise.all(
    packs.map((p) =>
      limit(async () => {
        const head = await store.head(p.key);
        if (head !== null) sizes.set(p.key, head.size);
      }),
    ),
  );
  return sizes;
}

async function checkStoreSizes(store: BlobStore, files: StoredFile[], limit: ReturnType<typeof pLimit>, progress: StoreProgress): Promise<void> {
  await Promise.all(
    files.map((f) =>
      limit(async () => {
        const head = await store.head(f.key);
        if (head?.size !== f.size) {
          throw new CatalogError(
            'io',
            `${store.location}: ${f.key} is ${head === null ? 'missing' : `${head.size} bytes`} after the upload, not ${f.size}; current.json was not switched: publish again (was a prune running at the same time?)`,
            { key: f.key },
          );
        }
        progress.advance(1);
      }),
    ),
  );
}

async function putChecked(store: BlobStore, file: StoredFile, bytes: Buffer, contentType: string): Promise<void> {
  await store.put(file.key, bytes, { contentType });
  const head = await store.head(file.key);
  if (head?.size !== file.size) {
    throw new CatalogError('io', `${store.location}: ${file.key} is ${head === null ? 'missing' : `${head.size} bytes`} after the upload, not ${file.size}; current.json was not switched: publish again`, { key: file.key });
  }
}
