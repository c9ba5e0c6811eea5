/**
 * Fetches a published packed snapshot from a BlobStore into a local snapshot root and makes it the
 * root's `current`, so an incremental compile can run against it (`catalog compile --out s3://…` when
 * its working root does not hold the store's current snapshot: a new host, a lost cache, a rollback).
 *
 * Everything the manifest lists comes down, packs included, not only the index and the bulk files: an
 * incremental compile reads previous objects from their packs (bulk files re-use unchanged objects'
 * bytes, and the live objects of a sparse pack are copied into the new one), and a compile against
 * the store's packs publishes only its new pack, where a full compile would upload every byte again
 * under new pack names. Packs and files already in the root at the right size are not fetched again.
 * Each download is read a range at a time (memory stays at one chunk), hashed, checked against the
 * manifest, and renamed into place; the manifest is written last and `current` switched after it, the
 * same order as a compile, so a killed fetch leaves an incomplete folder the next compile prunes.
 *
 * @example
 *   const s = await fetchSnapshotFromStore({ store, snapshotId: '2026…', to: '/var/cache/catalog/work/…' });
 *   s.bytes   // what came down
 */
import { createHash } from 'node:crypto';
import { open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import pLimit from 'p-limit';
import { CatalogError } from '../errors.js';
import type { BlobStore } from './blob-store.js';
import { makeDirs } from './make-dirs.js';
import { switchCurrent } from './pointer.js';
import { manifestKey, parsePackedManifest, signatureKey, snapshotContents, type StoredFile } from './publish-contents.js';
import { silentStoreProgress, type StoreProgress } from './publish-progress.js';

export interface FetchOptions {
  store: BlobStore;
  snapshotId: string;
  /** The local snapshot root. */
  to: string;
  progress?: StoreProgress;
  /** Downloads at once (default 3). */
  concurrency?: number;
  /** Bytes per ranged GET (default 16 MiB). */
  chunkBytes?: number;
}

export interface FetchSummary {
  files: number;
  bytes: number;
  /** Packs and files that were in the root already. */
  present: number;
}

export async function fetchSnapshotFromStore(options: FetchOptions): Promise<FetchSummary> {
  const { store, snapshotId, to } = options;
  const progress = options.progress ?? silentStoreProgress;
  const limit = pLimit(options.concurrency ?? 3);
  const chunkBytes = options.chunkBytes ?? 16 * 2 ** 20;
  const mKey = manifestKey(snapshotId);
  const manifest = await store.get(mKey);
  if (manifest === null) {
    throw new CatalogError('not_found', `${store.location}: snapshot ${snapshotId} has no manifest (${mKey}); it is not complete there`, { snapshotId });
  }
  const contents = snapshotContents(parsePackedManifest(manifest, `${store.location}${mKey}`), mKey);
  const all = [...contents.packs, ...contents.files];
  const sizes = await Promise.all(all.map((f) => stat(join(to, f.key)).then((s) => s.size, () => null)));
  const wanted = all.filter((f, i) => sizes[i] !== f.size);
  const summary: FetchSummary = { files: 0, bytes: 0, present: all.length - wanted.length };
  progress.phase(`fetch ${snapshotId} from ${store.location} (${wanted.length} of ${all.length} files, bytes)`, wanted.reduce((n, f) => n + f.size, 0));
  await Promise.all(
    wanted.map((f) =>
      limit(async () => {
        await download(store, f, join(to, f.key), chunkBytes, progress);
        summary.files++;
        summary.bytes += f.size;
      }),
    ),
  );
  const signature = await store.get(signatureKey(snapshotId));
  if (signature !== null) await writeWhole(join(to, signatureKey(snapshotId)), signature);
  await writeWhole(join(to, mKey), manifest);
  await switchCurrent(to, snapshotId);
  return summary;
}

/** Ranged GETs into a hidden temporary file, hashed on the way; renamed into place once it matches. */
async function download(store: BlobStore, file: StoredFile, path: string, chunkBytes: number, progress: StoreProgress): Promise<void> {
  await makeDirs(dirname(path));
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.fetch`);
  const hash = createHash('sha256');
  const out = await open(temp, 'w');
  try {
    for (let offset = 0; offset < file.size; ) {
      const length = Math.min(chunkBytes, file.size - offset);
      const bytes = await store.getRange(file.key, offset, length);
      if (bytes === null) throw new CatalogError('io', `${store.location}: ${file.key} is missing though the manifest lists it; run catalog verify on the store`, { key: file.key });
      hash.update(bytes);
      await out.write(bytes, 0, bytes.length, offset);
      offset += bytes.length;
      progress.advance(bytes.length);
    }
    await out.sync();
  } catch (err) {
    await out.close();
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  await out.close();
  const sha256 = hash.digest('hex');
  if (sha256 !== file.sha256) {
    await unlink(temp).catch(() => undefined);
    throw new CatalogError('corrupt_object', `${store.location}: ${file.key} has SHA-256 ${sha256}, the manifest says ${file.sha256}; run catalog verify on the store`, { key: file.key });
  }
  await rename(temp, path);
}

async function writeWhole(path: string, bytes: Buffer): Promise<void> {
  await makeDirs(dirname(path));
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.fetch`);
  const out = await open(temp, 'w');
  try {
    await out.write(bytes);
    await out.sync();
  } finally {
    await out.close();
  }
  await rename(temp, path);
}
