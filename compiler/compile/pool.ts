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
 * With `workers: 0` (or when running from TypeScript sources, e.g. under vitest) it renders inline.
 */
import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEntityRenderer, type EntityJob, type EntityWorkerInit, type RenderedObject } from './entity-jobs.js';

export interface EntityPool {
  submit(jobs: EntityJob[]): Promise<void>;
  /** Waits for every submitted batch and stops the workers. */
  drain(): Promise<void>;
  terminate(): Promise<void>;
}

export function createEntityPool(init: EntityWorkerInit, workers: number, onRendered: (objects: RenderedObject[], jobs: number) => void): EntityPool {
  const workerUrl = new URL('./render-worker.js', import.meta.url);
  if (workers <= 0 || !existsSync(fileURLToPath(workerUrl))) return createInlinePool(init, onRendered);

  const threads = Array.from({ length: workers }, () => new Worker(workerUrl, { workerData: init }));
  let renderHere: ((jobs: EntityJob[]) => RenderedObject[]) | null = null;
  // Deep enough that the worker always has a batch queued while the main thread writes the last one.
  const maxInFlightPerWorker = 6;
  const inFlight = new Map<number, { resolve: () => void; reject: (e: Error) => void; jobs: number; worker: number }>();
  const load = new Array<number>(workers).fill(0);
  let nextId = 0;
  let failure: Error | null = null;

  threads.forEach((t, index) => {
    t.on('message', (msg: { id: number; objects?: RenderedObject[]; error?: string }) => {
      const pending = inFlight.get(msg.id);
      if (!pending) return;
      inFlight.delete(msg.id);
      load[index]--;
      if (msg.error) {
        failure ??= new Error(`render worker failed: ${msg.error}`);
        pending.reject(failure);
      } else {
        try {
          onRendered(msg.objects ?? [], pending.jobs);
          pending.resolve();
        } catch (err) {
          failure ??= err as Error;
          pending.reject(failure);
        }
      }
    });
    t.on('error', (err) => {
      failure ??= err;
      for (const p of inFlight.values()) p.reject(err);
      inFlight.clear();
    });
  });

  const settled: Promise<void>[] = [];
  return {
    async submit(jobs) {
      if (jobs.length === 0) return;
      if (failure) throw failure;
      const index = load.indexOf(Math.min(...load));
      if (load[index] < maxInFlightPerWorker) {
        const id = nextId++;
        load[index]++;
        settled.push(
          new Promise<void>((resolve, reject) => {
            inFlight.set(id, { resolve, reject, jobs: jobs.length, worker: index });
          }).catch((e) => {
            failure ??= e as Error;
          }),
        );
        threads[index].postMessage({ id, jobs });
        return;
      }
      renderHere ??= createEntityRenderer(init);
      onRendered(renderHere(jobs), jobs.length);
      // Let the workers' finished batches in before the caller reads on.
      await new Promise<void>((r) => setImmediate(r));
    },
    async drain() {
      await Promise.all(settled);
      await Promise.all(threads.map((t) => t.terminate()));
      if (failure) throw failure;
    },
    async terminate() {
      await Promise.all(threads.map((t) => t.terminate()));
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
