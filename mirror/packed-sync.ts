/**
 * `catalog mirror` from a packed origin (manifest version 2, issue 17). The manifest and its
 * signature are already staged and checked (sync.ts); then, every request pinned to the snapshot:
 *
 *   1. the snapshot's files the manifest lists (object index, search index, change list) from
 *      `GET /v1/snapshot/files/<name>`, or linked from the mirror's current snapshot when the hash is
 *      the same;
 *   2. ONLY the packs the mirror does not hold (`GET /v1/snapshot/packs/<sha256>`): each downloaded
 *      into `.partial/packs/<sha256>.pack.part` (resumed with Range after an interruption) and renamed
 *      to `packs/<sha256>.pack` once its size and SHA-256 match the manifest, so a pack under its real
 *      name is always whole and right;
 *   3. the bulk files, as for a per-URL origin;
 *   4. the signature once more, and the object index against the manifest (its packs, its count);
 *      with `--layout files`, the per-URL files and the ETag map (files-layout.ts, which re-hashes
 *      every object it writes);
 *   5. the staged folder renamed beside `current`, `current` switched, old snapshots pruned and the
 *      packs no kept snapshot lists deleted (pack-gc.ts).
 *
 * The result is a packed snapshot root: `catalog serve --snapshots <mirror>` serves it and `catalog
 * verify <mirror>` checks it.
 */
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CatalogError } from '../snapshots/errors.js';
import { MANIFEST_FILE, OBJECT_INDEX_FILE, PACKS_DIR, isSnapshotFileName } from '../snapshots/keys.js';
import { readManifestHeader, type ManifestHeader, type SnapshotFileRef } from '../snapshots/manifest.js';
import { createObjectLookup } from '../snapshots/packs/object-index.js';
import { isPackHash } from '../snapshots/packs/pack-reader.js';
import { packFileName } from '../snapshots/packs/pack-writer.js';
import { makeDirs } from '../snapshots/store/make-dirs.js';
import { openIndexFile } from '../snapshots/store/packed-fs.js';
import { pruneSnapshots } from '../snapshots/store/fs.js';
import { switchCurrent } from '../snapshots/store/pointer.js';
import { checkFolderSignature } from '../snapshots/store/verify-folder.js';
import type { MirrorClient } from './client.js';
import { fetchVerified, holds, sizeOf } from './fetch-file.js';
import { previousHashes, writeFilesLayout } from './files-layout.js';
import { linkFrom } from './link.js';
import { runAll } from './run-all.js';
import { collectPacks } from './pack-gc.js';
import { knownSnapshot, removeStalePartials, syncBulk } from './sync.js';
import type { MirrorOptions, MirrorProgress, MirrorSummary, PackedSummary } from './sync-types.js';
import { PARTIAL_DIR } from './target.js';

export interface PackedSync {
  o: MirrorOptions;
  client: MirrorClient;
  /** `snapshot=<id>`, on every request. */
  pin: string;
  staging: string;
  header: ManifestHeader;
  currentId: string | null;
  summary: MirrorSummary;
  progress: MirrorProgress;
  started: number;
}

const isSize = (n: unknown) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/** Pack hashes and file names become paths: each is checked before anything is fetched. */
function checkPackedHeader(id: string, header: ManifestHeader): void {
  const bad = (what: string, value: unknown) =>
    new CatalogError('verify_failed', `the manifest of ${id} lists an invalid ${what}: ${JSON.stringify(value).slice(0, 200)}`);
  if (!Array.isArray(header.packs) || !Array.isArray(header.files)) throw bad('packed header (no packs or files list)', header.version);
  for (const p of header.packs) if (!isPackHash(p?.sha256) || !isSize(p.size)) throw bad('pack', p);
  for (const f of header.files) if (!isSnapshotFileName(f?.name) || !isPackHash(f.sha256) || !isSize(f.size)) throw bad('file', f);
  if (!header.files.some((f) => f.name === OBJECT_INDEX_FILE)) throw bad('packed header (no object index)', header.files.map((f) => f.name));
}

async function previousHeader(to: string, currentId: string | null): Promise<{ dir: string; header: ManifestHeader } | null> {
  if (currentId === null || !existsSync(join(to, currentId, MANIFEST_FILE))) return null;
  return { dir: join(to, currentId), header: await readManifestHeader(join(to, currentId, MANIFEST_FILE)) };
}

async function syncFiles(s: PackedSync, files: SnapshotFileRef[], previous: { dir: string; header: ManifestHeader } | null, packed: PackedSummary): Promise<void> {
  s.progress.phase('files', files.length);
  for (const f of files) {
    const path = join(s.staging, f.name);
    const same = previous?.header.files?.find((p) => p.name === f.name && p.sha256 === f.sha256);
    if (await holds(path, f)) {
      // Verified by an interrupted run.
    } else if (same && existsSync(join(previous!.dir, f.name))) {
      await rm(path, { force: true });
      linkFrom(join(previous!.dir, f.name), path);
      packed.filesLinked++;
    } else {
      await fetchVerified(s.client, `/v1/snapshot/files/${f.name}?${s.pin}`, { path, part: `${path}.part` }, f, `file ${f.name}`);
      packed.filesFetched++;
    }
    s.progress.advance(1);
  }
}

async function syncPacks(s: PackedSync, packed: PackedSummary): Promise<void> {
  const packs = s.header.packs ?? [];
  const dir = join(s.o.to, PACKS_DIR);
  const parts = join(s.o.to, PARTIAL_DIR, PACKS_DIR);
  await makeDirs(dir);
  await makeDirs(parts);
  s.progress.phase('packs', packs.length);
  // Packs are large: a few at a time fill the line without splitting it eight ways.
  await runAll(packs, Math.min(s.o.concurrency ?? 8, 4), async (p) => {
    const path = join(dir, packFileName(p.sha256));
    // A pack under its real name was checked before it got that name (fetchVerified, or the
    // compile that wrote it): its size is enough to know it is there. `catalog verify` re-hashes it.
    if ((await sizeOf(path)) === p.size) {
      packed.packsHeld++;
    } else {
      const got = await fetchVerified(s.client, `/v1/snapshot/packs/${p.sha256}?${s.pin}`, { path, part: join(parts, `${packFileName(p.sha256)}.part`) }, p, `pack ${p.sha256}`);
      packed.packsFetched++;
      packed.packsFetchedBytes += got.bytes;
      if (got.resumed) packed.packsResumed++;
    }
    s.progress.advance(1);
  });
}

/** The object index agrees with the signed manifest: same packs (hash and size), as many objects. */
function checkIndex(staging: string, id: string, header: ManifestHeader): void {
  const db = openIndexFile(join(staging, OBJECT_INDEX_FILE), id);
  try {
    const lookup = createObjectLookup(db);
    const inIndex = lookup.packs().map((p) => `${p.sha256}:${p.size}`).sort();
    const inManifest = (header.packs ?? []).map((p) => `${p.sha256}:${p.size}`).sort();
    if (inIndex.join(',') !== inManifest.join(',')) {
      throw new CatalogError('verify_failed', `snapshot ${id}: the object index lists ${inIndex.length} packs, the manifest ${inManifest.length}, not the same ones`);
    }
    const count = db.prepare('SELECT count(*) FROM objects').pluck().get() as number;
    if (count !== header.objects) throw new CatalogError('verify_failed', `snapshot ${id}: the object index holds ${count} objects, the manifest says ${header.objects}`);
  } finally {
    db.close();
  }
}

export async function syncPacked(s: PackedSync): Promise<MirrorSummary> {
  const { o, header, summary, progress } = s;
  const id = summary.snapshotId;
  checkPackedHeader(id, header);
  const layout = o.layout ?? 'packs';
  const packed: PackedSummary = {
    packs: header.packs!.length, packsFetched: 0, packsFetchedBytes: 0, packsHeld: 0, packsResumed: 0, filesFetched: 0, filesLinked: 0, extracted: 0, extractedLinked: 0,
  };
  Object.assign(summary, { packed, layout, objects: header.objects });
  const previous = await previousHeader(o.to, s.currentId);

  await syncFiles(s, header.files!, previous, packed);
  await syncPacks(s, packed);
  await syncBulk(s.client, s.pin, s.staging, header.bulk ?? [], previous && { dir: previous.dir, bulk: new Map((previous.header.bulk ?? []).map((b) => [b.file, b])) }, summary, progress);

  progress.phase('verify', null);
  await checkFolderSignature(s.staging, o.publicKey);
  checkIndex(s.staging, id, header);
  if (layout === 'files') {
    // A previous per-URL snapshot (an origin that was not packed yet) lists its hashes in its manifest.
    const before = previous && !existsSync(join(previous.dir, OBJECT_INDEX_FILE)) ? await knownSnapshot(o.to, s.currentId) : null;
    const hashes = previousHashes(previous?.dir ?? null, s.currentId, before?.objects ?? null);
    try {
      const written = await writeFilesLayout({
        root: o.to, staging: s.staging, id, previousDir: previous?.dir ?? null, previous: hashes.of, bulk: header.bulk ?? [], objects: header.objects, progress,
      });
      packed.extracted = written.extracted;
      packed.extractedLinked = written.linked;
    } finally {
      hashes.close();
    }
  }

  progress.phase('publish', null);
  await rename(s.staging, join(o.to, id));
  await switchCurrent(o.to, id);
  summary.pruned = await pruneSnapshots(o.to, o.keep ?? 2, [id]);
  await collectPacks(o.to);
  await removeStalePartials(o.to);
  summary.durationMs = Date.now() - s.started;
  return summary;
}
