/**
 * Builds the bulk files on a worker thread, so the compile renders the aggregate documents on the
 * main thread meanwhile: the cards and figures files need only the entity objects, which exist as
 * soon as the entity phase ends, and reading 100,000 objects back and gzipping their lines took
 * 13-16 s of one core at 100k cards, time the aggregates phase left the other core idle for
 * (docs/benchmarks.md). Jobs run one after another in the order submitted; `finish` resolves with
 * their files in that order.
 *
 * Without the compiled worker file (tests run the TypeScript sources) the jobs run on the calling
 * thread, with the same result.
 *
 * @example
 *   const bulk = startBulkFiles({ dir, previousDir });
 *   bulk.submit(documentJob('cards', entries));
 *   const files = await bulk.finish();
 */
import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BulkFile } from '../../snapshots/manifest.js';
import { CatalogError, type ErrorCode } from '../../snapshots/errors.js';
import { buildBulkFile, previousBulk, type BulkJob } from './write-bulk.js';

export interface BulkFiles {
  submit(job: BulkJob): void;
  /** The files of every submitted job, in submission order; rejects with the first failure. */
  finish(): Promise<BulkFile[]>;
  /** Stops building (a failed compile; the caller removes the folder). */
  abort(): Promise<void>;
}

export interface BulkWorkerData {
  dir: string;
  previousDir: string | null;
}
export type BulkWorkerReply = { file: BulkFile } | { error: { code: ErrorCode | null; message: string } };

export function startBulkFiles(data: BulkWorkerData): BulkFiles {
  const workerUrl = new URL('./bulk-worker.js', import.meta.url);
  return existsSync(fileURLToPath(workerUrl)) ? threaded(workerUrl, data) : inline(data);
}

function threaded(workerUrl: URL, data: BulkWorkerData): BulkFiles {
  const worker = new Worker(workerUrl, { workerData: data });
  const waiting: { resolve: (f: BulkFile) => void; reject: (e: Error) => void }[] = [];
  const results: Promise<BulkFile>[] = [];
  let failure: Error | null = null;
  const failAll = (err: Error) => {
    failure ??= err;
    for (const w of waiting.splice(0)) w.reject(failure);
  };
  worker.on('message', (reply: BulkWorkerReply) => {
    const next = waiting.shift();
    if (!next) return;
    if ('file' in reply) return next.resolve(reply.file);
    const e = reply.error;
    waiting.unshift(next);
    failAll(e.code ? new CatalogError(e.code, e.message) : new Error(`bulk file worker failed: ${e.message}`));
  });
  worker.on('error', (err) => failAll(err));
  worker.on('exit', (code) => failAll(new Error(`bulk file worker exited with code ${code}`)));
  return {
    submit(job) {
      const result = new Promise<BulkFile>((resolve, reject) => {
        if (failure) return reject(failure);
        waiting.push({ resolve, reject });
      });
      // Never an unhandled rejection: finish() re-throws it.
      result.catch(() => undefined);
      results.push(result);
      if (!failure) worker.postMessage(job);
    },
    async finish() {
      try {
        return await Promise.all(results);
      } finally {
        await worker.terminate();
      }
    },
    async abort() {
      await worker.terminate();
    },
  };
}

function inline(data: BulkWorkerData): BulkFiles {
  const previous = previousBulk(data.previousDir);
  let chain: Promise<unknown> = Promise.resolve();
  const results: Promise<BulkFile>[] = [];
  return {
    submit(job) {
      const result = chain.then(async () => buildBulkFile(job, data.dir, data.previousDir, await previous));
      result.catch(() => undefined);
      chain = result.catch(() => undefined);
      results.push(result);
    },
    finish: () => Promise.all(results),
    async abort() {
      await chain;
    },
  };
}
