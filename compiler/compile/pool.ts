/**
 * A small pool of render workers with batching and backpressure: `submit` resolves once the batch
 * is queued below the in-flight cap, so the main thread never reads the source faster than the
 * workers can render (memory stays bounded at any catalog size). Rendered objects come back to the
 * main thread through `onRendered`, which writes them.
 *
 * When every worker already holds its cap, the main thread renders the batch itself instead of
 * waiting: on a quiet machine the main thread (which only parses and creates files) was idle a
 * third of the entity phase while the worker rendered; on a busy one file creation keeps the main
 * thread busy, the queue never fills and nothing changes (docs/benchmarks.md, "Compile").
 *
 * With `workers: 0` or mode `inline` it renders on the calling thread. The threads are thread.ts's.
 */
import { startThread, type Thread, type ThreadMode } from '../threads/thread.js';
import { createEntityRenderer, renderService, type EntityJob, type EntityWorkerInit, type RenderedObject } from './entity-jobs.js';

export interface EntityPool {
  submit(jobs: EntityJob[]): Promise<void>;
  /** Waits for every submitted batch and stops the workers. */
  drain(): Promise<void>;
  terminate(): Promise<void>;
}

/** Batches queued per worker: deep enough that it always has one while the main thread stores the last. */
const MAX_IN_FLIGHT_PER_WORKER = 6;

export function createEntityPool(
  init: EntityWorkerInit,
  workers: number,
  onRendered: (objects: RenderedObject[], jobs: number) => void,
  mode: ThreadMode = 'worker',
): EntityPool {
  if (workers <= 0 || mode === 'inline') return createInlinePool(init, onRendered);
  const threads: Thread<EntityJob[], RenderedObject[]>[] = Array.from({ length: workers }, () => startThread(renderService, init, 'worker'));
  let renderHere: ((jobs: EntityJob[]) => RenderedObject[]) | null = null;
  let failure: Error | null = null;
  const settled: Promise<void>[] = [];
  const stop = () => Promise.all(threads.map((t) => t.close()));

  return {
    async submit(jobs) {
      if (jobs.length === 0) return;
      if (failure) throw failure;
      const loads = threads.map((t) => t.pending());
      const index = loads.indexOf(Math.min(...loads));
      if (loads[index] < MAX_IN_FLIGHT_PER_WORKER) {
        // Only the count is kept until the reply: the jobs (parsed price series) would otherwise live
        // long enough to reach the old generation, garbage the main thread's major collections walk.
        const count = jobs.length;
        settled.push(
          threads[index]
            .call(jobs)
            .then((objects) => onRendered(objects, count))
            .catch((err: Error) => {
              failure ??= err;
            }),
        );
        return;
      }
      renderHere ??= createEntityRenderer(init);
      onRendered(renderHere(jobs), jobs.length);
      // Let the workers' finished batches in before the caller reads on.
      await new Promise<void>((r) => setImmediate(r));
    },
    async drain() {
      await Promise.all(settled);
      await stop();
      if (failure) throw failure;
    },
    async terminate() {
      await stop();
    },
  };
}

function createInlinePool(init: EntityWorkerInit, onRendered: (objects: RenderedObject[], jobs: number) => void): EntityPool {
  const render = createEntityRenderer(init);
  return {
    async submit(jobs) {
      onRendered(render(jobs), jobs.length);
    },
    async drain() {},
    async terminate() {},
  };
}
