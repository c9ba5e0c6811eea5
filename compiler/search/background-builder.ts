/**
 * The search index builder on a thread of its own: `add` queues entries in batches for a worker
 * that runs createSearchIndexBuilder, and `finish` resolves once the file is complete. The compile
 * hands it the entries and renders the aggregate documents on the main thread meanwhile, so the
 * SQLite load, ranking, FTS build and VACUUM (3-4 s at 100,000 cards) use the otherwise idle core.
 *
 * When the worker entry is not compiled (running from TypeScript sources, e.g. under vitest) it
 * builds inline, with the same results.
 *
 * @example
 *   const search = createBackgroundSearchIndexBuilder(join(dir, SEARCH_DB_FILE), { asOf: '2026-11-20' });
 *   for (const entry of entries) search.add(entry);
 *   await search.finish();
 */
import { Worker } from 'node:worker_threads';
import { existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CatalogError, type ErrorCode } from '../../snapshots/errors.js';
import { createSearchIndexBuilder, type SearchIndexBuilderOptions } from './index-builder.js';
import type { SearchEntry } from './entry.js';

export interface BackgroundSearchIndexBuilder {
  add(entry: SearchEntry): void;
  /** Resolves when the index file is complete; rejects with the builder's error. */
  finish(): Promise<void>;
  /** Stops the build and deletes the partial file (a failed compile). */
  abort(): Promise<void>;
}

/** What the worker sends back: done, or the error that stopped the build. */
export type SearchWorkerReply = { done: true } | { error: { code: ErrorCode | null; message: string; details?: Record<string, unknown> } };
export type SearchWorkerMessage = { entries: SearchEntry[] } | { finish: true };

const BATCH = 2_000;

export function createBackgroundSearchIndexBuilder(path: string, options: SearchIndexBuilderOptions = {}): BackgroundSearchIndexBuilder {
  const workerUrl = new URL('./search-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(workerUrl))) return createInlineBuilder(path, options);

  const worker = new Worker(workerUrl, { workerData: { path, options } });
  let batch: SearchEntry[] = [];
  let failure: Error | null = null;
  const result = new Promise<void>((resolve, reject) => {
    worker.on('message', (reply: SearchWorkerReply) => {
      if ('done' in reply) return resolve();
      const e = reply.error;
      reject(e.code ? new CatalogError(e.code, e.message, e.details ?? {}) : new Error(`search index worker failed: ${e.message}`));
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`search index worker exited with code ${code}`)));
  });
  // Never an unhandled rejection: the failure is re-thrown by add/finish.
  result.catch((err: Error) => {
    failure ??= err;
  });
  const flush = () => {
    if (batch.length === 0) return;
    worker.postMessage({ entries: batch } satisfies SearchWorkerMessage);
    batch = [];
  };
  return {
    add(entry) {
      if (failure) throw failure;
      batch.push(entry);
      if (batch.length >= BATCH) flush();
    },
    async finish() {
      flush();
      worker.postMessage({ finish: true } satisfies SearchWorkerMessage);
      try {
        await result;
      } finally {
        await worker.terminate();
      }
    },
    async abort() {
      await worker.terminate();
      removeIndexFiles(path);
    },
  };
}

function createInlineBuilder(path: string, options: SearchIndexBuilderOptions): BackgroundSearchIndexBuilder {
  const builder = createSearchIndexBuilder(path, options);
  return {
    add: (entry) => builder.add(entry),
    async finish() {
      builder.finish();
    },
    async abort() {
      builder.abort();
    },
  };
}

function removeIndexFiles(path: string): void {
  for (const p of [path, `${path}-journal`, `${path}-wal`, `${path}-shm`]) rmSync(p, { force: true });
}
