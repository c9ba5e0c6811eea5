/**
 * `catalog mirror`: brings a partner's mirror folder to the origin's current snapshot.
 *
 *   1. GET /v1/snapshot names the snapshot; every later request pins it (`?snapshot=<id>`), so a
 *      publish at the origin mid-sync cannot mix two snapshots.
 *   2. The manifest and its signature are downloaded into `.partial/<id>/` and the signature is
 *      checked with the partner's public key before anything else is fetched.
 *   3. A packed snapshot (manifest version 2, what every compile writes since issue 17) goes on in
 *      packed-sync.ts: its files and only the packs the mirror lacks. What follows here is for a
 *      per-URL snapshot (version 1, an origin not recompiled since), kept while the proxy still serves
 *      that layout (test/mirror/per-url-mirror.e2e.test.ts).
 *   4. Each object is taken from, in order: `.partial/<id>/` (an interrupted run already verified
 *      it), the mirror's current snapshot when the key has the same SHA-256 (hard link), or the
 *      origin (hash checked before the file is renamed into place). Bulk files likewise, resumed
 *      with `Range`.
 *   5. The staged folder is verified in full (signature and every hash, snapshots/store/verify-folder.ts),
 *      the nginx ETag map is written, the folder is renamed next to `current`, and `current` is
 *      switched atomically. Any failure before the switch leaves the previous snapshot serving.
 */
import { existsSync } from 'node:fs';
import { readdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runAll } from './run-all.js';
import { sha256Hex } from '../snapshots/codec.js';
import { CatalogError, isCatalogError } from '../snapshots/errors.js';
import { MANIFEST_FILE, MANIFEST_SIGNATURE_FILE, isObjectKey } from '../snapshots/keys.js';
import { isManifestHeader, isPackedHeader, readManifest, type BulkFile, type ManifestEntry, type ManifestHeader } from '../snapshots/manifest.js';
import { pruneSnapshots } from '../snapshots/store/fs.js';
import { isSnapshotId, readCurrentId, switchCurrent } from '../snapshots/store/pointer.js';
import { checkFolderSignature, hashFile, verifySnapshotFolder } from '../snapshots/store/verify-folder.js';
import { createMirrorClient, type MirrorClient } from './client.js';
import { silentProgress as silent, type MirrorOptions, type MirrorProgress, type MirrorSummary } from './sync-types.js';
import { fetchVerified, sizeOf } from './fetch-file.js';
import { syncPacked } from './packed-sync.js';
import { linkFrom } from './link.js';
import { writeSnapshotEtagMap } from './etag-map.js';
import { PARTIAL_DIR, openMirrorTarget } from './target.js';
import { makeDirs } from '../snapshots/store/make-dirs.js';

export type { MirrorLayout, MirrorOptions, MirrorProgress, MirrorSummary } from './sync-types.js';

export const BULK_PATH = /^bulk\/[a-z0-9][a-z0-9-]{0,63}\.ndjson\.gz$/;

export interface Known {
  dir: string;
  objects: Map<string, string>;
  bulk: Map<string, BulkFile>;
}

export async function readManifestFile(path: string): Promise<{ header: ManifestHeader; entries: ManifestEntry[] }> {
  let header: ManifestHeader | null = null;
  const entries: ManifestEntry[] = [];
  try {
    for await (const item of readManifest(path)) {
      if (isManifestHeader(item)) header = item;
      else entries.push(item as ManifestEntry);
    }
  } catch (err) {
    throw new CatalogError('verify_failed', `the manifest cannot be read (${(err as Error).message})`);
  }
  if (header === null) throw new CatalogError('verify_failed', 'the manifest is empty');
  return { header, entries };
}

/** What the mirror's current snapshot holds, by key and hash (the objects a sync need not fetch). */
export async function knownSnapshot(to: string, id: string | null): Promise<Known | null> {
  if (id === null || !existsSync(join(to, id, MANIFEST_FILE))) return null;
  const { header, entries } = await readManifestFile(join(to, id, MANIFEST_FILE));
  return {
    dir: join(to, id),
    objects: new Map(entries.map((e) => [e.key, e.sha256])),
    bulk: new Map((header.bulk ?? []).map((b) => [b.file, b])),
  };
}

export async function mirrorSnapshot(o: MirrorOptions): Promise<MirrorSummary> {
  const started = Date.now();
  openMirrorTarget(o.to, o.from);
  const client = createMirrorClient({
    baseUrl: o.from, key: o.key, connections: o.concurrency ?? 8, clock: o.clock, attempts: o.attempts,
    onRetry: (line) => (o.progress ?? silent).note(line),
  });
  try {
    try {
      return await syncOnce(o, client, started);
    } catch (err) {
      // The pinned snapshot was pruned at the origin mid-sync: start over once from the new current.
      if (isCatalogError(err) && err.code === 'gone') return await syncOnce(o, client, started);
      throw err;
    }
  } finally {
    await client.close();
  }
}

async function syncOnce(o: MirrorOptions, client: MirrorClient, started: number): Promise<MirrorSummary> {
  const progress = o.progress ?? silent;
  const keep = o.keep ?? 2;
  progress.phase('snapshot', null);
  const info = await client.getJson<{ data?: { snapshotId?: unknown } }>('/v1/snapshot');
  const id = info.data?.snapshotId;
  if (typeof id !== 'string' || !isSnapshotId(id)) throw new CatalogError('verify_failed', `${o.from}/v1/snapshot does not name a snapshot`);
  const currentId = await readCurrentId(o.to);
  const summary: MirrorSummary = {
    snapshotId: id, previousId: currentId, upToDate: false, objects: 0, fetched: 0, fetchedBytes: 0, linked: 0, resumed: 0,
    bulkFetched: 0, bulkLinked: 0, packed: null, layout: 'files', pruned: [], durationMs: 0,
  };
  if (currentId === id) {
    await checkFolderSignature(join(o.to, id), o.publicKey);
    return { ...summary, upToDate: true, durationMs: Date.now() - started };
  }

  const pin = `snapshot=${encodeURIComponent(id)}`;
  const staging = join(o.to, PARTIAL_DIR, id);
  await makeDirs(staging);

  progress.phase('manifest', null);
  await writeFile(join(staging, MANIFEST_FILE), await client.getBytes(`/v1/snapshot/manifest?${pin}`));
  try {
    await writeFile(join(staging, MANIFEST_SIGNATURE_FILE), await client.getBytes(`/v1/snapshot/signature?${pin}`));
  } catch (err) {
    // An unsigned snapshot has no signature: the check below says so in its own words.
    if (!(isCatalogError(err) && err.code === 'not_found')) throw err;
    await rm(join(staging, MANIFEST_SIGNATURE_FILE), { force: true });
  }
  try {
    await checkFolderSignature(staging, o.publicKey);
  } catch (err) {
    // A manifest that fails its signature is not kept for a resume.
    await rm(join(staging, MANIFEST_FILE), { force: true });
    await rm(join(staging, MANIFEST_SIGNATURE_FILE), { force: true });
    throw err;
  }
  const { header, entries } = await readManifestFile(join(staging, MANIFEST_FILE));
  if (header.snapshotId !== id) throw new CatalogError('verify_failed', `the manifest of ${id} names snapshot ${header.snapshotId}`);
  checkBulkPaths(header.bulk ?? []);
  if (isPackedHeader(header)) {
    return syncPacked({ o, client, pin, staging, header, currentId, summary, progress, started });
  }
  if (o.packedOnly) {
    throw new CatalogError('usage', `${o.from} serves snapshot ${id} as per-URL files (manifest version 1), and an s3:// mirror holds packed snapshots only: ` +
      'mirror it to a folder, or sync again after the origin\'s next compile', { option: 'to' });
  }
  for (const e of entries) {
    if (!isObjectKey(e.key)) throw new CatalogError('verify_failed', `the manifest lists an invalid object key: ${JSON.stringify(e.key).slice(0, 200)}`);
  }
  summary.objects = entries.length;

  const known = await knownSnapshot(o.to, currentId);
  await syncObjects(o, client, pin, staging, entries, known, summary, progress);
  await syncBulk(client, pin, staging, header.bulk ?? [], known, summary, progress);

  progress.phase('verify', entries.length);
  let seen = 0;
  const verified = await verifySnapshotFolder(staging, {
    publicKey: o.publicKey,
    onProgress: (n) => {
      progress.advance(n - seen);
      seen = n;
    },
  });
  if (verified.problems.length > 0) {
    // Remove what failed so the next run fetches it again; everything else stays staged.
    for (const p of verified.problems) {
      const path = p.split(':', 1)[0];
      if (isObjectKey(path) || BULK_PATH.test(path)) await rm(join(staging, path), { force: true });
    }
    throw new CatalogError('verify_failed', `snapshot ${id}: ${verified.problems.length} problem(s) after download, first: ${verified.problems[0]}; ` +
      'the mirror still serves its previous snapshot; run catalog mirror again');
  }

  progress.phase('publish', null);
  await writeSnapshotEtagMap(staging, id, entries, header.bulk ?? []);
  await rename(staging, join(o.to, id));
  await switchCurrent(o.to, id);
  summary.pruned = await pruneSnapshots(o.to, keep, [id]);
  await removeStalePartials(o.to);
  summary.durationMs = Date.now() - started;
  return summary;
}

function checkBulkPaths(bulk: BulkFile[]): void {
  for (const b of bulk) {
    if (!BULK_PATH.test(b.file)) throw new CatalogError('verify_failed', `the manifest lists an invalid bulk file: ${JSON.stringify(b.file).slice(0, 200)}`);
  }
}

async function syncObjects(
  o: MirrorOptions, client: MirrorClient, pin: string, staging: string, entries: ManifestEntry[], known: Known | null,
  summary: MirrorSummary, progress: MirrorProgress,
): Promise<void> {
  progress.phase('objects', entries.length);
  const dirs = new Set<string>();
  const ensureDir = async (path: string) => {
    const d = dirname(path);
    if (dirs.has(d)) return;
    await makeDirs(d);
    dirs.add(d);
  };
  await runAll(entries, o.concurrency ?? 8, async (e) => {
    const path = join(staging, e.key);
    if ((await sizeOf(path)) === e.size) {
      const got = await hashFile(path);
      if (got?.sha256 === e.sha256) {
        summary.resumed++;
        progress.advance(1);
        return;
      }
    }
    await ensureDir(path);
    if (known && known.objects.get(e.key) === e.sha256) {
      await rm(path, { force: true });
      linkFrom(join(known.dir, e.key), path);
      summary.linked++;
      progress.advance(1);
      return;
    }
    const bytes = await fetchObject(client, `/v1/snapshot/objects/${e.key}?${pin}`, e);
    const tmp = `${path}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, path);
    summary.fetched++;
    summary.fetchedBytes += bytes.length;
    progress.advance(1);
  });
}

/** The object's bytes, refetched once when they do not match the manifest (a truncated body), then an error. */
async function fetchObject(client: MirrorClient, path: string, e: ManifestEntry): Promise<Buffer> {
  for (let attempt = 1; ; attempt++) {
    const bytes = await client.getBytes(path);
    if (bytes.length === e.size && sha256Hex(bytes) === e.sha256) return bytes;
    if (attempt >= 2) {
      throw new CatalogError('verify_failed', `${e.key}: the origin sent ${bytes.length} bytes that do not match the signed manifest (${e.size} bytes, sha256 ${e.sha256})`);
    }
  }
}

/** The bulk files: linked from the mirror's current snapshot when their hash is the same, else downloaded (resumable). */
export async function syncBulk(
  client: MirrorClient, pin: string, staging: string, bulk: BulkFile[], known: Pick<Known, 'dir' | 'bulk'> | null, summary: MirrorSummary, progress: MirrorProgress,
): Promise<void> {
  progress.phase('bulk files', bulk.length);
  for (const b of bulk) {
    const path = join(staging, b.file);
    await makeDirs(dirname(path));
    const before = known?.bulk.get(b.file);
    if ((await sizeOf(path)) !== b.size && before?.sha256 === b.sha256) {
      await rm(path, { force: true });
      linkFrom(join(known!.dir, b.file), path);
      summary.bulkLinked++;
    } else if ((await sizeOf(path)) !== b.size || (await hashFile(path))?.sha256 !== b.sha256) {
      await fetchVerified(client, `/v1/bulk/${b.name}?${pin}`, { path, part: `${path}.part` }, b, `bulk file ${b.name}`);
      summary.bulkFetched++;
    }
    progress.advance(1);
  }
}

export async function removeStalePartials(to: string): Promise<void> {
  const dir = join(to, PARTIAL_DIR);
  for (const name of await readdir(dir).catch(() => [] as string[])) await rm(join(dir, name), { recursive: true, force: true });
}
