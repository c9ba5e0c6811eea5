/**
 * A small pool of render workers with batching and backpressure: `submit` resolves once the batch
 * is queued below the in-flight cap, so the main thread never reads the source faster than the
 * workers can render (memory stays bounded at any catalog size). Rendered objects come back to the
 * main thread through `onRendered`, which writes them.
 *
 * Each worker has one arena per batch it may hold (entity-jobs.ts): a batch is sent with a free
 * arena of its worker, its objects come back in it, and the arena is free again once `onRendered`
 * has returned (the pack writer copies what it is given). `onRendered` must not keep the objects'
 * bytes.
 *
 * When every worker already holds its cap, the main thread renders the batch itself (into an arena
 * of its own) instead of waiting: on a quiet machine the main thread was otherwise idle a third of
 * the entity phase while the worker rendered (docs/benchmarks.md, "Compile").
 *
 * With `workers: 0` or mode `inline` it renders on the calling thread. The threads are thread.ts's.
 */
import { startThread, type Thread, type ThreadMode } from '../threads/thread.js';
import {
  ARENA_BYTES, arenaOf, createEntityRenderer, INPUT_ARENA_BYTES, renderService,
  type EntityJob, type EntityWorkerInit, type RenderedObject, type RenderRequest,
} from './entity-jobs.js';

export interface EntityPool {
  submit(jobs: EntityJob[]): Promise<void>;
  /** Waits for every batch submitted so far (their objects handed to `onRendered`); the workers stay. */
  settle(): Promise<void>;
  /** Batches submitted to the workers whose objects have not come back yet. */
  inFlight(): number;
  /** Waits for every submitted batch and stops the workers. */
  drain(): Promise<void>;
  terminate(): Promise<void>;
}

/** Called with a batch's objects and the arena they are in (valid until it returns). */
export type OnRendered = (objects: RenderedObject[], jobs: number, arena: Buffer) => void;

/** Batches queued per worker: deep enough that it always has one while the main thread stores the last. */
const MAX_IN_FLIGHT_PER_WORKER = 6;

interface RenderThread {
  thread: Thread<RenderRequest, RenderedObject[]>;
  arenas: Buffer[];
  /** The input arena of each arena (documents' JSON written by this thread: inArena). */
  inputs: Buffer[];
  /** Indexes of the arenas no batch in flight uses. */
  free: number[];
}

export function createEntityPool(
  init: EntityWorkerInit,
  workers: number,
  onRendered: OnRendered,
  mode: ThreadMode = 'worker',
): EntityPool {
  if (workers <= 0 || mode === 'inline') return createInlinePool(init, onRendered);
  const threads: RenderThread[] = Array.from({ length: workers }, () => {
    const shared = new SharedArrayBuffer(MAX_IN_FLIGHT_PER_WORKER * ARENA_BYTES);
    const inputs = new SharedArrayBuffer(MAX_IN_FLIGHT_PER_WORKER * INPUT_ARENA_BYTES);
    return {
      thread: startThread(renderService, { ...init, arenas: shared, inputs }, 'worker'),
      arenas: Array.from({ length: MAX_IN_FLIGHT_PER_WORKER }, (_, i) => arenaOf(shared, i)),
      inputs: Array.from({ length: MAX_IN_FLIGHT_PER_WORKER }, (_, i) => arenaOf(inputs, i, INPUT_ARENA_BYTES)),
      free: Array.from({ length: MAX_IN_FLIGHT_PER_WORKER }, (_, i) => MAX_IN_FLIGHT_PER_WORKER - 1 - i),
    };
  });
  let renderHere: ((jobs: EntityJob[], arena: Buffer) => RenderedObject[]) | null = null;
  let ownArena: Buffer | null = null;
  let failure: Error | null = null;
  let settled: Promise<void>[] = [];
  let inFlight = 0;
  const stop = () => Promise.all(threads.map((t) => t.thread.close()));

  return {
    async submit(jobs) {
      if (jobs.length === 0) return;
      if (failure) throw failure;
      // The least loaded worker with a free arena (a worker's arenas are as many as its cap).
      let target: RenderThread | null = null;
      for (const t of threads) {
        if (t.free.length > 0 && (target === null || t.thread.pending() < target.thread.pending())) target = t;
      }
      if (target !== null) {
        const t = target;
        const arena = t.free.pop()!;
        // Only the count is kept until the reply: the jobs (parsed price series) would otherwise live
        // long enough to reach the old generation, garbage the main thread's major collections walk.
        const count = jobs.length;
        inFlight++;
        settled.push(
          t.thread
            .call({ jobs: inArena(jobs, t.inputs[arena]), arena })
            .then((objects) => onRendered(objects, count, t.arenas[arena]))
            .finally(() => {
              t.free.push(arena);
              inFlight--;
            })
            .catch((err: Error) => {
              failure ??= err;
            }),
        );
        return;
      }
      renderHere ??= createEntityRenderer(init);
      ownArena ??= Buffer.allocUnsafeSlow(ARENA_BYTES);
      onRendered(renderHere(jobs, ownArena), jobs.length, ownArena);
      // Let the workers' finished batches in before the caller reads on.
      await new Promise<void>((r) => setImmediate(r));
    },
    async settle() {
      const waiting = settled;
      settled = [];
      await Promise.all(waiting);
      if (failure) throw failure;
    },
    inFlight: () => inFlight,
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

/**
 * A batch with its documents' JSON written as UTF-8 into `input` (the batch's input arena, shared with
 * its render thread) instead of sent as strings: a string in a message is copied by the serializer on
 * this thread and again into a new string on the other (at a million cards, handing the aggregate
 * documents over cost the main thread about 2 s in postMessage). A document that does not fit stays a string.
 */
function inArena(jobs: EntityJob[], input: Buffer): EntityJob[] {
  // A batch is entities or aggregate documents (some of them page patches), never both.
  if (jobs.length === 0 || jobs[0].kind === 'card' || jobs[0].kind === 'figure') return jobs;
  let used = 0;
  return jobs.map((job) => {
    if (job.kind !== 'document') return job;
    const room = input.length - used;
    // Three bytes of UTF-8 at most per UTF-16 unit: a string that surely fits is not measured first.
    if (job.json.length * 3 > room && Buffer.byteLength(job.json, 'utf8') > room) return job;
    const length = input.write(job.json, used, 'utf8');
    const at = used;
    used += length;
    return { kind: 'document-bytes', key: job.key, at, length, input: job.input };
  });
}

function createInlinePool(init: EntityWorkerInit, onRendered: OnRendered): EntityPool {
  const render = createEntityRenderer(init);
  const arena = Buffer.allocUnsafeSlow(ARENA_BYTES);
  return {
    async submit(jobs) {
      onRendered(render(jobs, arena), jobs.length, arena);
    },
    async settle() {},
    inFlight: () => 0,
    async drain() {},
    async terminate() {},
  };
}
