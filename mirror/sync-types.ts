/**
 * What `catalog mirror` takes and reports, shared by both sync paths: by object for a per-URL
 * origin (sync.ts) and by pack for a packed one (packed-sync.ts).
 */
import type { KeyObject } from 'node:crypto';
import type { Clock } from './rate-gate.js';

export interface MirrorProgress {
  phase(name: string, total: number | null): void;
  advance(units: number): void;
  note(line: string): void;
}

/**
 * What a sync of a packed origin leaves: `packs` is a packed snapshot root (what `catalog serve` and
 * `catalog verify` read); `files` adds the per-URL files and the ETag map nginx serves
 * (docs/mirroring.md). A per-URL origin always gives per-URL files.
 */
export type MirrorLayout = 'packs' | 'files';
export const MIRROR_LAYOUTS: readonly MirrorLayout[] = ['packs', 'files'];

export interface MirrorOptions {
  from: string;
  key: string;
  to: string;
  publicKey: KeyObject;
  /** Parallel object fetches (default 8). */
  concurrency?: number;
  /** Snapshots to keep in the mirror, current included (default 2). */
  keep?: number;
  /** Default `packs`. */
  layout?: MirrorLayout;
  progress?: MirrorProgress;
  clock?: Clock;
  /** Attempts per request (default 6). */
  attempts?: number;
  /** Refuse a per-URL origin before anything is fetched (an s3:// mirror holds packed snapshots only). */
  packedOnly?: boolean;
}

export interface PackedSummary {
  /** Packs the snapshot's index points into. */
  packs: number;
  packsFetched: number;
  packsFetchedBytes: number;
  /** Packs the mirror held already (shared with an earlier snapshot, or fetched by an interrupted run). */
  packsHeld: number;
  /** Pack downloads that went on from bytes an interrupted run left. */
  packsResumed: number;
  filesFetched: number;
  filesLinked: number;
  /** `--layout files`: per-URL files written from the packs, and linked from the previous snapshot. */
  extracted: number;
  extractedLinked: number;
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
  /** Set for a packed origin. */
  packed: PackedSummary | null;
  layout: MirrorLayout;
  pruned: string[];
  durationMs: number;
}

export const silentProgress: MirrorProgress = { phase() {}, advance() {}, note() {} };
