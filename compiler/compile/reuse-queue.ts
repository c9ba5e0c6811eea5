/**
 * Hard links of unchanged objects, made on a thread of their own while the main thread reads on.
 *
 * Why: on an incremental compile almost every object is re-used, and each card costs a `mkdir` and
 * five `link(2)` calls. Made on the main thread, those system calls were 17 s of a 26 s entity phase
 * at 100,000 cards (docs/benchmarks.md), time in which the main thread could not parse, validate and
 * fingerprint the price lines that follow. One thread making the links in order, while the main
 * thread goes on, overlaps the two. One thread, not many: concurrent links and folders on ext4
 * were measured slower in total than from one thread (directory and journal locks).
 *
 * `push` never blocks; `ready()` hands the caller a promise to await only when too many links are
 * waiting (memory stays bounded at any catalog size). `drain()` resolves once every pushed link
 * exists, and throws the first failure: the compile drains before it checks and publishes the new
 * folder. The bulk files, built meanwhile, read an unchanged object whose link is not made yet from
 * the previous folder (compiler/bulk/write-bulk.ts).
 *
 * With `thread: false` (or when running from TypeScript sources, e.g. under vitest) the links are
 * made inline by `push`, exactly as before.
 *
 * @example
 *   const reuse = createReuseQueue(options.out, writer, { thread: true });
 *   reuse.push(previous.dir, ['v1/cards/x/30d.json.gz']);
 *   await reuse.ready();   // resolves at once unless the thread is behind
 *   await reuse.drain();   // every link exists (or this throws)
 *   await reuse.close();
 */
import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SnapshotWriter } from '../../snapshots/store/types.js';

export interface ReuseQueue {
  /** Queues links of `keys` from `previousDir` into the new snapshot (made inline without a thread). */
  push(previousDir: string, keys: readonly string[]): void;
  /** Resolves when the thread has room for more; at once while it keeps up. */
  ready(): Promise<void>;
  /** Resolves once every pushed link exists; rejects with the first failure. */
  drain(): Promise<void>;
  /** Stops the thread (after drain, or to abandon the work on failure). */
  close(): Promise<void>;
}

/** What the reuse thread is started with: the new snapshot's root and id (it opens its own writer). */
export interface ReuseWorkerInit {
  root: string;
  id: string;
}

export interface ReuseBatch {
  id: number;
  previousDir: string;
  keys: string[];
}

/** Keys per message: large enough that messaging costs nothing next to the links. */
const BATCH_KEYS = 1024;
/** Batches queued on the thread before `ready()` makes the caller wait. */
const MAX_IN_FLIGHT = 8;

/** `writer` writes snapshot `writer.id` under `root`; the thread opens its own writer for the same folder. */
export function createReuseQueue(root: string, writer: SnapshotWriter, options: { thread: boolean }): ReuseQueue {
  const workerUrl = new URL('./reuse-worker.js', import.meta.url);
  if (!options.thread || !existsSync(fileURLToPath(workerUrl))) return inlineQueue(writer);

  const init: ReuseWorkerInit = { root, id: writer.id };
  const thread = new Worker(workerUrl, { workerData: init });
  let failure: Error | null = null;
  let nextId = 0;
  const inFlight = new Set<number>();
  let batch: ReuseBatch | null = null;
  /** Waiters for room (ready) and for an empty queue (drain). */
  let waiters: (() => void)[] = [];
  const wake = () => {
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };

  thread.on('message', (msg: { id: number; error?: string }) => {
    inFlight.delete(msg.id);
    if (msg.error !== undefined) failure ??= new Error(`re-using an object of the previous snapshot failed: ${msg.error}`);
    wake();
  });
  thread.on('error', (err) => {
    failure ??= err;
    inFlight.clear();
    wake();
  });

  const send = () => {
    if (batch === null) return;
    inFlight.add(batch.id);
    thread.postMessage(batch);
    batch = null;
  };
  const waitUntil = async (done: () => boolean) => {
    while (!done() && failure === null) await new Promise<void>((r) => waiters.push(r));
    if (failure) throw failure;
  };

  return {
    push(previousDir, keys) {
      if (batch !== null && batch.previousDir !== previousDir) send();
      batch ??= { id: nextId++, previousDir, keys: [] };
      for (const k of keys) batch.keys.push(k);
      if (batch.keys.length >= BATCH_KEYS) send();
    },
    async ready() {
      await waitUntil(() => inFlight.size < MAX_IN_FLIGHT);
    },
    async drain() {
      send();
      await waitUntil(() => inFlight.size === 0);
    },
    async close() {
      await thread.terminate();
    },
  };
}

function inlineQueue(writer: SnapshotWriter): ReuseQueue {
  let failure: Error | null = null;
  const check = async () => {
    if (failure) throw failure;
  };
  return {
    push(previousDir, keys) {
      if (failure) throw failure;
      try {
        for (const k of keys) writer.reuseSync(previousDir, k);
      } catch (err) {
        failure = err as Error;
        throw err;
      }
    },
    ready: check,
    drain: check,
    async close() {},
  };
}
