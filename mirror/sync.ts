/**
 * `catalog mirror`: brings a partner's mirror folder to the origin's current snapshot.
 *
 *   1. GET /v1/snapshot names the snapshot; every later request pins it (`?snapshot=<id>`), so a
 *      publish at the origin mid-sync cannot mix two snapshots.
 *   2. The manifest and its signature are downloaded into `.partial/<id>/` and the signature is
 *      checked with the partner's public key before anything else is fetched.
 *   3. Each object is taken from, in order: `.partial/<id>/` (an interrupted run already verified
 *      it), the mirror's current snapshot when the key has the same SHA-256 (hard link), or the
 *      origin (hash checked before the file is renamed into place). Bulk files likewise, resumed
 *      with `Range`.
 *   4. The staged folder is verified in full (signature and every hash, snapshots/store/verify-folder.ts),
 *      the nginx ETag map is written, the folder is renamed next to `current`, and `current` is
 *      switched atomically. Any failure before the switch leaves the previous snapshot serving.
 */
import type { KeyObject } from 'node:crypto';
import { existsSync, linkSync, copyFileSync } from 'node:fs';
import { readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import pLimit from 'p-limit';
import { sha256Hex } from '../snapshots/codec.js';
import { CatalogError, isCatalogError } from '../snapshots/errors.js';
import { MANIFEST_FILE, MANIFEST_SIGNATURE_FILE, isObjectKey } from '../snapshots/keys.js';
import { isManifestHeader, readManifest, type BulkFile, type ManifestEntry, type ManifestHeader } from '../snapshots/manifest.js';
import { pruneSnapshots } from '../snapshots/store/fs.js';
import { isSnapshotId, readCurrentId, switchCurrent } from '../snapshots/store/pointer.js';
import { checkFolderSignature, hashFile, verifySnapshotFolder } from '../snapshots/store/verify-folder.js';
import { createMirrorClient, type MirrorClient } from './client.js';
import type { Clock } from './rate-gate.js';
import { ETAG_MAP_FILE, uriOfKey, writeEtagMap } from './etag-map.js';
import { PARTIAL_DIR, openMirrorTarget } from './target.js';
import { makeDirs } from '../snapshots/store/make-dirs.js';

export interface MirrorProgress {
  phase(name: string, total: number | null): void;
  advance(units: number): void;
  note(line: string): void;
}

export interface MirrorOptions {
  from: string;
  key: string;
  to: string;
  publicKey: KeyObject;
  /** Parallel object fetches (default 8). */
  concurrency?: number;
  /** Snapshots to keep in the mirror, current included (default 2). */
  keep?: number;
  progress?: MirrorProgress;
  clock?: Clock;
  /** Attempts per request (default 6). */
  attempts?: number;
}

export interface MirrorSummary {
  snapshotId: string;
  previousId: string | null;
  upToDate: boolean;
  objects: number;
  /** Objects downloaded from the origin. */
  fetched: number;
  fetchedBytes: number;
  /** Objects hard-linked from the mirror's previous snapshot (same hash). */
  linked: number;
  /** Objects an interrupted run had already verified. */
  resumed: number;
  bulkFetched: number;
  bulkLinked: number;
  pruned: string[];
  durationMs: number;
}

const silent: MirrorProgress = { phase() {}, advance() {}, note() {} };
const BULK_PATH = /^bulk\/[a-z0-9][a-z0-9-]{0,63}\.ndjson\.gz$/;

interface Known {
  dir: string;
  objects: Map<string, string>;
  bulk: Map<string, BulkFile>;
}

async function readManifestFile(path: string): Promise<{ header: ManifestHeader; entries: ManifestEntry[] }> {
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
async function knownSnapshot(to: string, id: string | null): Promise<Known | null> {
  if (id === null || !existsSync(join(to, id, MANIFEST_FILE))) return null;
  const { header, entries } = await readManifestFile(join(to, id, MANIFEST_FILE));
  return {
    dir: join(to, id),
    objects: new Map(entries.map((e) => [e.key, e.sha256])),
    bulk: new Map((header.bulk ?? []).map((b) => [b.file, b])),
  };
}

function linkFrom(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return;
    copyFileSync(from, to);
  }
}

async function sizeOf(path: string): Promise<number | null> {
  return (await stat(path).catch(() => null))?.size ?? null;
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
    bulkFetched: 0, bulkLinked: 0, pruned: [], durationMs: 0,
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
  for (const e of entries) {
    if (!isObjectKey(e.key)) throw new CatalogError('verify_failed', `the manifest lists an invalid object key: ${JSON.stringify(e.key).slice(0, 200)}`);
  }
  for (const b of header.bulk ?? []) {
    if (!BULK_PATH.test(b.file)) throw new CatalogError('verify_failed', `the manifest lists an invalid bulk file: ${JSON.stringify(b.file).slice(0, 200)}`);
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
  const files = [];
  for (const name of [MANIFEST_FILE, MANIFEST_SIGNATURE_FILE]) {
    const got = await hashFile(join(staging, name));
    if (got) files.push({ uri: `/${name}`, sha256: got.sha256 });
  }
  await writeEtagMap(join(staging, ETAG_MAP_FILE), id, [...etagLines(entries, header.bulk ?? []), ...files]);
  await rename(staging, join(o.to, id));
  await switchCurrent(o.to, id);
  summary.pruned = await pruneSnapshots(o.to, keep, [id]);
  await removeStalePartials(o.to);
  summary.durationMs = Date.now() - started;
  return summary;
}

function* etagLines(entries: ManifestEntry[], bulk: BulkFile[]): Iterable<{ uri: string; sha256: string }> {
  for (const e of entries) yield { uri: uriOfKey(e.key), sha256: e.sha256 };
  for (const b of bulk) yield { uri: `/${b.file}`, sha256: b.sha256 };
}

async function syncObjects(
  o: MirrorOptions, client: MirrorClient, pin: string, staging: string, entries: ManifestEntry[], known: Known | null,
  summary: MirrorSummary, progress: MirrorProgress,
): Promise<void> {
  progress.phase('objects', entries.length);
  const limit = pLimit(o.concurrency ?? 8);
  const dirs = new Set<string>();
  const ensureDir = async (path: string) => {
    const d = dirname(path);
    if (dirs.has(d)) return;
    await makeDirs(d);
    dirs.add(d);
  };
  await Promise.all(entries.map((e) => limit(async () => {
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
    const bytes = await fetchVerified(client, `/v1/snapshot/objects/${e.key}?${pin}`, e);
    const tmp = `${path}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, path);
    summary.fetched++;
    summary.fetchedBytes += bytes.length;
    progress.advance(1);
  })));
}

/** The object's bytes, refetched once when they do not match the manifest (a truncated body), then an error. */
async function fetchVerified(client: MirrorClient, path: string, e: ManifestEntry): Promise<Buffer> {
  for (let attempt = 1; ; attempt++) {
    const bytes = await client.getBytes(path);
    if (bytes.length === e.size && sha256Hex(bytes) === e.sha256) return bytes;
    if (attempt >= 2) {
      throw new CatalogError('verify_failed', `${e.key}: the origin sent ${bytes.length} bytes that do not match the signed manifest (${e.size} bytes, sha256 ${e.sha256})`);
    }
  }
}

async function syncBulk(
  client: MirrorClient, pin: string, staging: string, bulk: BulkFile[], known: Known | null, summary: MirrorSummary, progress: MirrorProgress,
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
      // Downloaded into `.part` (kept across interrupted runs and resumed with Range), renamed once its hash matches.
      const part = `${path}.part`;
      const url = `/v1/bulk/${b.name}?${pin}`;
      await client.download(url, part, { etag: `"${b.sha256}"`, size: b.size });
      let got = await hashFile(part);
      if (got?.sha256 !== b.sha256) {
        // A part file from another version of the file, or a corrupted one: once more from zero.
        await rm(part, { force: true });
        await client.download(url, part, { etag: `"${b.sha256}"`, size: b.size });
        got = await hashFile(part);
      }
      if (got?.sha256 !== b.sha256 || got.size !== b.size) {
        await rm(part, { force: true });
        throw new CatalogError('verify_failed', `bulk file ${b.name}: the download does not match the signed manifest (${got?.size ?? 0} of ${b.size} bytes)`);
      }
      await rename(part, path);
      summary.bulkFetched++;
    }
    progress.advance(1);
  }
}

async function removeStalePartials(to: string): Promise<void> {
  const dir = join(to, PARTIAL_DIR);
  for (const name of await readdir(dir).catch(() => [] as string[])) await rm(join(dir, name), { recursive: true, force: true });
}
