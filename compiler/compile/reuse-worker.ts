/**
 * Worker-thread entry of reuse-queue.ts: makes the hard links (or copies) of each batch in order,
 * through the same filesystem writer the main thread uses, and reports each batch done or failed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createFsSnapshotWriter } from '../../snapshots/store/fs.js';
import type { ReuseBatch, ReuseWorkerInit } from './reuse-queue.js';

const init = workerData as ReuseWorkerInit;
const writer = createFsSnapshotWriter(init.root, init.id);

parentPort!.on('message', (batch: ReuseBatch) => {
  try {
    for (const key of batch.keys) writer.reuseSync(batch.previousDir, key);
    parentPort!.postMessage({ id: batch.id });
  } catch (err) {
    parentPort!.postMessage({ id: batch.id, error: (err as Error).message ?? String(err) });
  }
});
