/**
 * Prune on an object store as garbage collection: keep the complete snapshots the retention keeps
 * (the newest `keep` plus the newest of each of the last `keepDaily` days, retention.ts) and the current one, delete the other snapshots' keys (the manifest first, so a prune killed half-way leaves
 * a snapshot that reads as incomplete, never one that claims objects it lost), then delete every pack
 * no kept manifest references. Its cost is one listing of the root (packs plus a dozen files per
 * snapshot), a GET of each kept manifest (one line each) and a DELETE per removed key: it grows with
 * packs and snapshots, never with objects.
 *
 * An incomplete snapshot (files but no manifest) older than the current one was left by a killed
 * publish or prune and goes. One newer than the current one may be a publish still running, so it is
 * left alone, and so are the packs: its manifest does not exist yet to say which packs it needs (the
 * publish HEAD-checks them before writing its manifest, so a race cannot publish a snapshot with a
 * pack missing, only make that publish fail). Once a later publish is current, such a leftover is older
 * than it and is collected.
 *
 * @example
 *   const r = await pruneStore(store, { keep: 3 });
 *   r.removed      // ['20261120T020000Z-…']
 *   r.packs.deleted // 2
 */
import pLimit from 'p-limit';
import { CatalogError } from '../errors.js';
import type { BlobStore } from './blob-store.js';
import { isSnapshotId } from './pointer.js';
import { manifestKey, PACK_KEY, parsePackedManifest, signatureKey, snapshotContents } from './publish-contents.js';
import { readStoreCurrent } from './publish-pointer.js';
import { silentStoreProgress, type StoreProgress } from './publish-progress.js';
import { retainedSnapshots, retentionOf, type Retention } from './retention.js';

export interface PruneStoreOptions extends Retention {
  progress?: StoreProgress;
  /** DELETEs at once (default 8). */
  concurrency?: number;
}

export interface PruneStoreSummary {
  current: string | null;
  kept: string[];
  removed: string[];
  /** Incomplete snapshots newer than current, left alone (a publish may be running). */
  inProgress: string[];
  packs: { kept: number; deleted: number; bytesFreed: number; skipped: boolean };
  deletedKeys: number;
}

export async function pruneStore(store: BlobStore, options: PruneStoreOptions): Promise<PruneStoreSummary> {
  // Checked before the store is listed: a bad option costs no request.
  retentionOf(options);
  const progress = options.progress ?? silentStoreProgress;
  const limit = pLimit(options.concurrency ?? 8);
  const current = await readStoreCurrent(store);

  progress.phase('prune: list the store (objects)', null);
  const snapshots = new Map<string, string[]>();
  const packs = new Map<string, number>();
  for await (const item of store.list('')) {
    progress.advance(1);
    const slash = item.key.indexOf('/');
    const top = slash === -1 ? item.key : item.key.slice(0, slash);
    if (PACK_KEY.test(item.key)) packs.set(item.key, item.size);
    else if (slash !== -1 && isSnapshotId(top)) snapshots.set(top, [...(snapshots.get(top) ?? []), item.key]);
  }

  const ids = [...snapshots.keys()].sort();
  const complete = ids.filter((id) => snapshots.get(id)!.includes(manifestKey(id)));
  const keep = new Set([...retainedSnapshots(complete, options), ...(current ? [current] : [])]);
  const inProgress = ids.filter((id) => !complete.includes(id) && (current === null || id > current));
  const doomed = ids.filter((id) => !keep.has(id) && !inProgress.includes(id));

  const summary: PruneStoreSummary = {
    current,
    kept: ids.filter((id) => keep.has(id)),
    removed: [],
    inProgress,
    packs: { kept: 0, deleted: 0, bytesFreed: 0, skipped: false },
    deletedKeys: 0,
  };
  const remove = async (key: string) => {
    await store.delete(key);
    summary.deletedKeys++;
    progress.advance(1);
  };

  progress.phase(`prune: delete ${doomed.length} snapshots (objects)`, doomed.reduce((n, id) => n + snapshots.get(id)!.length, 0));
  for (const id of doomed) {
    const keys = snapshots.get(id)!;
    // Manifest, then signature, then the rest: at every moment the snapshot is complete or reads as incomplete.
    for (const first of [manifestKey(id), signatureKey(id)]) if (keys.includes(first)) await remove(first);
    await Promise.all(keys.filter((k) => k !== manifestKey(id) && k !== signatureKey(id)).map((k) => limit(() => remove(k))));
    summary.removed.push(id);
  }

  if (inProgress.length > 0) {
    summary.packs.skipped = true;
    summary.packs.kept = packs.size;
    progress.note(
      `prune: ${inProgress.join(', ')} ${inProgress.length === 1 ? 'has' : 'have'} no manifest and ${inProgress.length === 1 ? 'is' : 'are'} newer than current: ` +
        'a publish may be running, so no pack is deleted this time; the next prune after a publish collects them',
    );
    return summary;
  }

  // Packs: those no kept manifest references go.
  const referenced = new Set<string>();
  for (const id of summary.kept) {
    const key = manifestKey(id);
    const bytes = await store.get(key);
    if (bytes === null) throw new CatalogError('io', `${store.location}: ${key} vanished while pruning; no pack was deleted: is another prune or publish running?`, { key });
    for (const p of snapshotContents(parsePackedManifest(bytes, `${store.location}${key}`), key).packs) referenced.add(p.key);
  }
  const garbage = [...packs].filter(([key]) => !referenced.has(key));
  progress.phase(`prune: delete ${garbage.length} packs (objects)`, garbage.length);
  await Promise.all(
    garbage.map(([key, size]) =>
      limit(async () => {
        await remove(key);
        summary.packs.deleted++;
        summary.packs.bytesFreed += size;
      }),
    ),
  );
  summary.packs.kept = packs.size - garbage.length;
  return summary;
}
