/**
 * Worker-thread entry: renders batches of entity jobs and answers with what it wrote.
 * Started by pool.ts with the EntityWorkerInit as workerData.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createEntityRenderer, type EntityJob, type EntityWorkerInit } from './entity-jobs.js';

const render = createEntityRenderer(workerData as EntityWorkerInit);

parentPort!.on('message', (msg: { id: number; jobs: EntityJob[] }) => {
  try {
    parentPort!.postMessage({ id: msg.id, written: render(msg.jobs) });
  } catch (err) {
    parentPort!.postMessage({ id: msg.id, error: (err as Error).stack ?? String(err) });
  }
});
