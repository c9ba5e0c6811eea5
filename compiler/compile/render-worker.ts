/**
 * Worker-thread entry: renders batches of entity jobs and hands the compressed objects back,
 * transferring their memory instead of copying it. Started by pool.ts with EntityWorkerInit as workerData.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createEntityRenderer, type EntityJob, type EntityWorkerInit, type RenderedObject } from './entity-jobs.js';

const render = createEntityRenderer(workerData as EntityWorkerInit);

/** zlib output normally owns its ArrayBuffer; copy when it does not, so a transfer never detaches shared memory. */
function ownBuffer(o: RenderedObject): ArrayBuffer {
  const b = o.bytes;
  if (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer) return b.buffer;
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  o.bytes = copy;
  return copy.buffer;
}

parentPort!.on('message', (msg: { id: number; jobs: EntityJob[] }) => {
  try {
    const objects = render(msg.jobs);
    parentPort!.postMessage({ id: msg.id, objects }, objects.map(ownBuffer));
  } catch (err) {
    parentPort!.postMessage({ id: msg.id, error: (err as Error).stack ?? String(err) });
  }
});
