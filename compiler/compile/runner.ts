/**
 * Runs the compile's phases in order and owns the clean-up of a failure. A step is a phase the main
 * thread waits for (it names the phase on the progress line); a background phase runs on a thread
 * beside later steps (the search index, the bulk files) and is finished by a later step. When any
 * step throws, `abort()` stops every background phase still running, newest first, so the caller's
 * one catch removes the half-written snapshot and nothing is left writing into it.
 *
 * @example
 *   const run = createRunner(progress);
 *   try {
 *     const summaries = await run.step('cards and figures', total, () => renderEntities(...));
 *     const search = run.background(startSearch(...));
 *     await run.step('aggregate documents', null, () => renderAggregates(...));
 *     const finished = search.finish();   // runs on its thread beside the next step
 *     await run.step('object index', null, () => finishSnapshotIndex(...));
 *     await run.step('search index finish', null, () => finished);
 *   } catch (err) {
 *     await run.abort();
 *     throw err;
 *   }
 */
import type { ProgressSink } from './progress.js';

/** Work started on another thread: finished by a later step, or aborted on failure. */
export interface BackgroundPhase {
  abort(): Promise<void>;
}

export interface Runner {
  step<T>(name: string, total: number | null, work: () => T | Promise<T>): Promise<T>;
  /** Registers a phase running beside the next steps; returns it. */
  background<P extends BackgroundPhase>(phase: P): P;
  /** Stops every background phase (those already finished ignore it). */
  abort(): Promise<void>;
}

export function createRunner(progress: ProgressSink): Runner {
  const running: BackgroundPhase[] = [];
  return {
    async step(name, total, work) {
      progress.phase(name, total);
      return work();
    },
    background(phase) {
      running.push(phase);
      return phase;
    },
    async abort() {
      for (const phase of running.splice(0).reverse()) {
        // A failing abort must not hide the failure that caused it, nor stop the other aborts.
        await phase.abort().catch(() => undefined);
      }
    },
  };
}
