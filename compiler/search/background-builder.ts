/**
 * The search index builder on a thread of its own: `add` queues entries in batches for a worker
 * that runs createSearchIndexBuilder, and `finish` resolves once the file is complete. The compile
 * hands it the entries and renders the aggregate documents on the main thread meanwhile, so the
 * SQLite load, ranking, FTS build and VACUUM (3-4 s at 100,000 cards) use the otherwise idle core.
 *
 * With mode `inline` it builds on the calling thread, with the same results.
 *
 * What waits for the thread is bounded (MAX_QUEUED batches): a caller adds while `room()` says so
 * and awaits `ready()` when it has nothing else to do. Unbounded, every entry of the catalog could
 * wait in the thread's queue at once (serialized, outside both heaps).
 *
 * @example
 *   const search = createBackgroundSearchIndexBuilder(join(dir, SEARCH_DB_FILE), { asOf: '2026-11-20' });
 *   for (const entry of entries) {
 *     await search.ready();
 *     search.add(entry);
 *   }
 *   await search.finish();
 */
import { startThread, type ThreadMode, type ThreadService } from '../threads/thread.js';
import { createSearchIndexBuilder, removeIndexFiles, type SearchIndexBuilder, type SearchIndexBuilderOptions } from './index-builder.js';
import type { SearchEntry } from './entry.js';

export interface BackgroundSearchIndexBuilder {
  add(entry: SearchEntry): void;
  /**
   * True while fewer than MAX_QUEUED batches wait for the thread. Synchronous (the thread counts the
   * batches it has done in shared memory), so a caller busy with other work on its own thread can
   * keep the builder fed without ever letting the queue grow with the catalog.
   */
  room(): boolean;
  /** Resolves once there is room (the caller's backpressure when it has nothing else to do). */
  ready(): Promise<void>;
  /** Resolves when the index file is complete; rejects with the builder's error. */
  finish(): Promise<void>;
  /** Stops the build and deletes the partial file (a failed compile). */
  abort(): Promise<void>;
}

export type SearchRequest = { entries: SearchEntry[] } | { finish: true } | { abort: true };

/** The builder of one index file; a failed request aborts it (the thread answers nothing more). */
export const searchService: ThreadService<{ path: string; options: SearchIndexBuilderOptions; done: Int32Array }, SearchRequest, null> = {
  name: 'search index',
  entry: new URL('./search-worker.js', import.meta.url),
  create({ path, options, done }) {
    let builder: SearchIndexBuilder | null = createSearchIndexBuilder(path, options);
    return (request) => {
      if (builder === null) throw new Error('the search index build has stopped');
      try {
        if ('entries' in request) {
          for (const e of request.entries) builder.add(e);
          Atomics.add(done, 0, 1);
        } else if ('finish' in request) {
          builder.finish();
          builder = null;
        } else {
          builder.abort();
          builder = null;
        }
      } catch (err) {
        builder?.abort();
        builder = null;
        throw err;
      }
      return null;
    };
  },
};

const BATCH = 2_000;
/** Batches sent and not yet added: the bound on what waits in the thread's queue (about 8 MB at most). */
const MAX_QUEUED = 8;

export function createBackgroundSearchIndexBuilder(path: string, options: SearchIndexBuilderOptions = {}, mode: ThreadMode = 'worker'): BackgroundSearchIndexBuilder {
  // Batches the thread has added, in memory both threads see (a SharedArrayBuffer is shared, not copied).
  const done = new Int32Array(new SharedArrayBuffer(4));
  const thread = startThread(searchService, { path, options, done }, mode);
  let sent = 0;
  let batch: SearchEntry[] = [];
  let failure: Error | null = null;
  const send = (request: SearchRequest) =>
    thread.call(request).catch((err: Error) => {
      failure ??= err;
      throw err;
    });
  /** Sent batches not awaited yet (ready() awaits them oldest first). */
  const queued: Promise<unknown>[] = [];
  const room = () => sent - Atomics.load(done, 0) < MAX_QUEUED;
  const flush = () => {
    if (batch.length === 0) return;
    // A failed batch is remembered (the next add or finish throws it); never an unhandled rejection.
    queued.push(send({ entries: batch }).catch(() => undefined));
    sent++;
    batch = [];
  };
  return {
    add(entry) {
      if (failure) throw failure;
      batch.push(entry);
      if (batch.length >= BATCH) flush();
    },
    room,
    async ready() {
      // A failed batch is never counted as done: its failure ends the wait instead.
      while (!room() && failure === null && queued.length > 0) await queued.shift();
      if (failure) throw failure;
    },
    async finish() {
      flush();
      try {
        // The first failure is the one worth reporting (later requests only say the build stopped).
        await send({ finish: true }).catch(() => undefined);
        if (failure) throw failure;
      } finally {
        await thread.close();
      }
    },
    async abort() {
      // A worker is stopped at once (its handle dies with it); inline, the builder closes its handle.
      if (mode === 'inline') await thread.call({ abort: true }).catch(() => undefined);
      await thread.close();
      removeIndexFiles(path);
    },
  };
}
