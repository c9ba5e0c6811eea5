/**
 * The kept snapshots as partners see them (GET /v1/snapshots, the Atom feed at /v1/snapshot/feed):
 * id, creation time, previous snapshot, entity counts from the bulk files and object change counts,
 * newest first. A summary is read once per snapshot id from its manifest header (a published
 * snapshot never changes) and kept in a bounded map, so a feed of 90 daily snapshots costs one
 * listing of the root, not 90 manifest reads, per request.
 *
 * @example
 *   const list = createSnapshotList({ snapshots, current: (c) => serve.pin(c) });
 *   (await list.summaries(c))[0].snapshotId   // the newest kept snapshot
 */
import type { Context } from 'hono';
import { toTimestamp } from '../../snapshots/envelope.js';
import type { ManifestHeader } from '../../snapshots/manifest.js';
import type { KeptSnapshot, SnapshotReader, SnapshotSource } from '../../snapshots/store/types.js';
import { MANIFEST_FILE } from '../../snapshots/keys.js';
import { CatalogError } from '../../snapshots/errors.js';
import type { ProxyEnv } from '../env.js';

export interface SnapshotSummary {
  snapshotId: string;
  createdAt: string;
  /** The data date of the snapshot (the manifest's `asOf`, as an instant), or null. */
  asOf: string | null;
  previous: string | null;
  objects: number;
  counts: { cards: number | null; figures: number | null; sets: number | null; oracle: number | null };
  /** Objects new, changed, unchanged and removed against `previous` (the snapshot it was compiled against). */
  changes: { new: number; changed: number; unchanged: number; removed: number };
}

export interface SnapshotList {
  /** Every kept snapshot, newest first (the current one included even if the source cannot list). */
  summaries(c: Context<ProxyEnv>): Promise<SnapshotSummary[]>;
}

/** Summaries remembered, at most: more than any retention an operator states (--keep-daily 365 plus a few). */
const KEPT_SUMMARIES = 1024;

/** `20261122T021830Z-3c48fccd` → `2026-11-22T02:18:30.000Z` (ids are made from the compile's clock). */
export function createdAtOf(snapshotId: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z/.exec(snapshotId)!;
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.000Z`;
}

export function summaryOf(id: string, header: ManifestHeader): SnapshotSummary {
  const bulk = header.bulk ?? [];
  const countOf = (name: string) => bulk.find((b) => b.name === name)?.count ?? null;
  return {
    snapshotId: id,
    createdAt: createdAtOf(id),
    asOf: header.asOf === null ? null : toTimestamp(header.asOf),
    previous: header.previous,
    objects: header.objects,
    counts: { cards: countOf('cards'), figures: countOf('figures'), sets: countOf('sets'), oracle: countOf('oracle') },
    changes: header.counts,
  };
}

/** The current snapshot as a KeptSnapshot, for a source that cannot list (its header read from its manifest file). */
export function keptOf(reader: SnapshotReader): KeptSnapshot {
  return {
    id: reader.id,
    header: async () => {
      const file = await reader.file(MANIFEST_FILE);
      if (file === null) throw new CatalogError('internal', 'a published snapshot has no manifest', { snapshotId: reader.id });
      let head = '';
      for await (const chunk of file.stream(0, Math.max(0, file.size - 1))) {
        head += (chunk as Buffer).toString('utf8');
        if (head.includes('\n')) break;
      }
      return JSON.parse(head.split('\n')[0]) as ManifestHeader;
    },
  };
}

const prunedMeanwhile = (err: unknown): boolean =>
  (err instanceof CatalogError && err.code === 'gone') || (err as NodeJS.ErrnoException)?.code === 'ENOENT';

export function createSnapshotList(deps: { snapshots: SnapshotSource; current: (c: Context<ProxyEnv>) => Promise<SnapshotReader> }): SnapshotList {
  const known = new Map<string, Promise<SnapshotSummary>>();

  const summary = (kept: KeptSnapshot): Promise<SnapshotSummary> => {
    let p = known.get(kept.id);
    if (p === undefined) {
      p = kept.header().then((h) => summaryOf(kept.id, h));
      known.set(kept.id, p);
      // A failure (a snapshot pruned between the listing and the read) is not remembered.
      p.catch(() => known.delete(kept.id));
      if (known.size > KEPT_SUMMARIES) known.delete(known.keys().next().value!);
    }
    return p;
  };

  return {
    async summaries(c) {
      // Pinned first: 503 before the first publish, and X-Snapshot-Id names the current snapshot.
      const current = await deps.current(c);
      const listed = deps.snapshots.list ? await deps.snapshots.list() : [keptOf(current)];
      // A rollback can make an older snapshot current; a listing taken just before a publish may
      // miss the newest. Either way the current one is in the answer.
      if (!listed.some((k) => k.id === current.id)) listed.push(keptOf(current));
      const settled = await Promise.allSettled(listed.map(summary));
      const out: SnapshotSummary[] = [];
      for (const r of settled) {
        if (r.status === 'fulfilled') out.push(r.value);
        // A snapshot pruned between the listing and its header read is left out; anything else fails.
        else if (!prunedMeanwhile(r.reason)) throw r.reason;
      }
      return out.sort((a, b) => (a.snapshotId < b.snapshotId ? 1 : a.snapshotId > b.snapshotId ? -1 : 0));
    },
  };
}
