/**
 * Worker-thread entry of background-bulk.ts: builds each bulk job it is sent, one after another,
 * and answers with the file's manifest entry or the error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CatalogError } from '../../snapshots/errors.js';
import type { BulkWorkerData, BulkWorkerReply } from './background-bulk.js';
import { buildBulkFile, previousBulk, type BulkJob } from './write-bulk.js';

const { dir, previousDir } = workerData as BulkWorkerData;
const previous = previousBulk(previousDir);
let chain: Promise<void> = Promise.resolve();

const reply = (r: BulkWorkerReply) => parentPort!.postMessage(r);

parentPort!.on('message', (job: BulkJob) => {
  chain = chain.then(async () => {
    try {
      reply({ file: await buildBulkFile(job, dir, previousDir, await previous) });
    } catch (err) {
      reply({
        error: err instanceof CatalogError ? { code: err.code, message: err.message } : { code: null, message: (err as Error)?.stack ?? String(err) },
      });
    }
  });
});
