/**
 * The object-store half of `catalog compile --out s3://…` and `catalog publish`: get the working
 * root ready for an incremental compile (the store's current snapshot must be its `current`), then
 * publish a compiled snapshot to the store and prune there, with the summary lines both print.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CliIO } from './io.js';
import { formatDuration } from './progress.js';
import { isCatalogError } from '../snapshots/errors.js';
import type { BlobStore } from '../snapshots/store/blob-store.js';
import { CURRENT_JSON, readCurrentId, switchCurrent } from '../snapshots/store/pointer.js';
import { manifestKey } from '../snapshots/store/publish-contents.js';
import { fetchSnapshotFromStore } from '../snapshots/store/publish-fetch.js';
import { readStoreCurrent } from '../snapshots/store/publish-pointer.js';
import type { StoreProgress } from '../snapshots/store/publish-progress.js';
import { pruneStore } from '../snapshots/store/publish-prune.js';
import { publishToStore } from '../snapshots/store/publish-to-store.js';
import type { Retention } from '../snapshots/store/retention.js';

/** Snapshots the working root keeps: the one the next incremental compile needs, and the one before. */
export const WORK_ROOT_KEEP = 2;

/**
 * Makes the store's current snapshot the working root's `current`, so the compile that follows is
 * incremental against what partners see: already there (nothing to do), in the root but not current
 * (the pointer is switched), or fetched from the store (manifest, index, search, bulk files and the
 * packs the root lacks: publish-fetch.ts says why the packs too). A store snapshot that cannot be
 * fetched (incomplete, corrupt) is noted and the compile runs against what the root has, in full if
 * it has nothing. Failures to reach the store end the command: the publish would fail too.
 */
export async function prepareWorkRoot(store: BlobStore, work: string, progress: StoreProgress): Promise<void> {
  const published = await readStoreCurrent(store);
  const local = await readCurrentId(work);
  if (published === null) {
    progress.note(`${store.location} has no ${CURRENT_JSON} yet: ${local === null ? 'a full compile' : `compiling against ${local} in ${work}`}, then the first publish`);
    return;
  }
  if (published === local) return;
  if (existsSync(join(work, manifestKey(published)))) {
    progress.note(`${work}: current was ${local ?? 'unset'}, the store's is ${published}: compiling against ${published}`);
    await switchCurrent(work, published);
    return;
  }
  progress.note(`${work} does not hold ${published}, the current snapshot of ${store.location}: fetching it for an incremental compile`);
  try {
    const s = await fetchSnapshotFromStore({ store, snapshotId: published, to: work, progress });
    progress.note(`fetched ${published}: ${s.files} files, ${formatBytes(s.bytes)} (${s.present} already in ${work})`);
  } catch (err) {
    if (!isCatalogError(err) || (err.code !== 'corrupt_object' && err.code !== 'not_found')) throw err;
    progress.note(`could not fetch ${published} (${err.message}): ${local === null ? 'a full compile' : `compiling against ${local}`} instead`);
  }
}

export interface PublishAndPruneOptions {
  from: string;
  snapshotId: string;
  store: BlobStore;
  /** Prune the store after the publish, keeping what this retention keeps (retention.ts); null skips the prune. */
  keep: Retention | null;
  progress: StoreProgress;
  io: CliIO;
  /** Called when the publish, then the prune, succeeded, with its summary (the compile's JSON log ends each phase with it). */
  finished?: (message: string, summary: Record<string, unknown>) => void;
}

/** Publishes, prunes, and prints one line for each. */
export async function publishAndPrune(o: PublishAndPruneOptions): Promise<void> {
  const p = await publishToStore({ from: o.from, snapshotId: o.snapshotId, store: o.store, progress: o.progress });
  o.finished?.('publish finished', { snapshotId: p.snapshotId, packsUploaded: p.packs.uploaded, packsPresent: p.packs.present, files: p.files.uploaded, objects: p.objects, bytes: p.bytes, durationMs: p.durationMs });
  const secs = Math.max(p.durationMs / 1000, 0.001);
  const lines = [
    `published ${p.snapshotId} to ${o.store.location}: ${p.packs.uploaded} of ${p.packs.listed} packs uploaded (${p.packs.present} already there), ` +
      `${p.files.uploaded} files, ${p.objects} objects, ${formatBytes(p.bytes)} in ${formatDuration(p.durationMs)} ` +
      `(${formatBytes(p.bytes / secs)}/s) -> ${o.store.location}${CURRENT_JSON}`,
  ];
  if (o.keep !== null) {
    const r = await pruneStore(o.store, { ...o.keep, progress: o.progress });
    o.finished?.('prune finished', { kept: r.kept, removed: r.removed, inProgress: r.inProgress, packsDeleted: r.packs.deleted, packsKept: r.packs.kept, bytesFreed: r.packs.bytesFreed });
    lines.push(
      `pruned ${o.store.location}: ${count(r.removed.length, 'snapshot')} removed${r.removed.length ? ` (${r.removed.join(', ')})` : ''}, ` +
        (r.packs.skipped ? 'packs left for the next prune' : `${count(r.packs.deleted, 'pack')} deleted (${formatBytes(r.packs.bytesFreed)})`) +
        `; kept ${count(r.kept.length, 'snapshot')} and ${count(r.packs.kept, 'pack')}`,
    );
  }
  o.io.stdout.write(lines.map((l) => `${l}\n`).join(''));
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** 1536 -> '1.5 KiB', 73400320 -> '70.0 MiB'. */
export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return i === 0 ? `${Math.round(n)} B` : `${n.toFixed(1)} ${units[i]}`;
}
