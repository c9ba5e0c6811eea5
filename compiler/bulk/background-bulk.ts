/**
 * Builds the bulk files on a worker thread, so the compile renders the aggregate documents on the
 * main thread meanwhile: the cards and figures files need only the entity objects, which exist as
 * soon as the entity phase ends, and reading 100,000 objects back and gzipping their lines took
 * 13-16 s of one core at 100k cards, time the aggregates phase left the other core idle for
 * (docs/benchmarks.md). Jobs run one after another in the order submitted; `finish` resolves with
 * their files in that order.
 *
 * With mode `inline` the jobs run on the calling thread, with the same result.
 *
 * @example
 *   const bulk = startBulkFiles({ dir, previousDir }, 'worker');
 *   bulk.submit(documentJob('cards', entries));
 *   const files = await bulk.finish();
 */
import type { BulkFile } from '../../snapshots/manifest.js';
import { startThread, type ThreadMode, type ThreadService } from '../threads/thread.js';
import { bulkFileOf, buildBulkFile, previousBulk, type BulkJob } from './write-bulk.js';
import { openPatchBase, type PatchBase } from './patch-file.js';
import type { DocumentName } from './document-ranges.js';

export interface BulkFiles {
  /** The snapshot folder the files are written into, when it was not known at the start (`BulkWorkerData.dir`). */
  into(dir: string): void;
  submit(job: BulkJob): void;
  /** The files of every submitted job, in submission order; rejects with the first failure. */
  finish(): Promise<BulkFile[]>;
  /** Stops building (a failed compile; the caller removes the folder). */
  abort(): Promise<void>;
}

export interface BulkWorkerData {
  /** The new snapshot's folder; may be given later (`into`), before the first job. */
  dir?: string;
  previousDir: string | null;
  /**
   * The document files the compile expects to patch from its changes (patch-file.ts): what a patch
   * reads before the changes are known (the previous file's segment state and table, and its
   * SHA-256 checked) is read as soon as the thread starts, which the compile does before it reads
   * the catalog, on a core that is otherwise half idle then, instead of after the entities (about
   * 1.1 s of the bulk thread at a million cards; started with the entity phase, the same work made
   * that phase about 1.5 s longer: docs/benchmarks.md).
   */
  warm?: readonly DocumentName[];
}

/** A job and the folder its file goes into. */
export interface BulkRequest {
  job: BulkJob;
  dir: string;
}

/** Builds each job it is given, one after another (thread.ts runs it on a worker or inline). */
export const bulkService: ThreadService<BulkWorkerData, BulkRequest, BulkFile> = {
  name: 'bulk files',
  entry: new URL('./bulk-worker.js', import.meta.url),
  create(data) {
    const previous = previousBulk(data.previousDir);
    const bases = patchBases(data, previous);
    return async ({ job, dir }) => buildBulkFile(job, dir, data.previousDir, await previous, await bases);
  },
};

/** openPatchBase of each file of `data.warm` the previous snapshot has (null where it cannot be made). */
async function patchBases(data: BulkWorkerData, previous: Promise<Map<string, BulkFile>>): Promise<Map<string, PatchBase | null>> {
  const bases = new Map<string, PatchBase | null>();
  if (data.previousDir === null || !data.warm?.length) return bases;
  const files = await previous;
  for (const name of data.warm) {
    const prev = files.get(name);
    if (prev === undefined || prev.file !== bulkFileOf(name)) continue;
    try {
      bases.set(name, openPatchBase(name, prev, data.previousDir));
    } catch {
      // Made again by the patch itself, which reports what is wrong.
    }
  }
  return bases;
}

/** The flat lists of a job (digests, where the objects are) move to the thread rather than being copied. */
function flatLists(job: BulkJob): ArrayBuffer[] {
  const lists = [job.shas, job.previous?.shas, job.stored?.packs, job.stored?.offsets, job.stored?.sizes];
  const buffers = new Set<ArrayBuffer>();
  for (const l of lists) if (l !== undefined && l.buffer instanceof ArrayBuffer && l.buffer.byteLength > 0) buffers.add(l.buffer);
  return [...buffers];
}

export function startBulkFiles(data: BulkWorkerData, mode: ThreadMode = 'worker'): BulkFiles {
  const thread = startThread(bulkService, data, mode);
  const results: Promise<BulkFile>[] = [];
  let dir = data.dir;
  return {
    into(folder) {
      dir = folder;
    },
    submit(job) {
      if (dir === undefined) throw new Error('bulk files: a job submitted before the snapshot folder is known');
      const result = thread.call({ job, dir }, flatLists(job));
      // Never an unhandled rejection: finish() re-throws it.
      result.catch(() => undefined);
      results.push(result);
    },
    async finish() {
      try {
        return await Promise.all(results);
      } finally {
        await thread.close();
      }
    },
    async abort() {
      await thread.close();
    },
  };
}
