/**
 * Worker-thread entry of the background search index builder (background-builder.ts): adds the
 * entries it is sent, builds the file on `finish` and answers done or the error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CatalogError } from '../../snapshots/errors.js';
import { createSearchIndexBuilder, type SearchIndexBuilder, type SearchIndexBuilderOptions } from './index-builder.js';
import type { SearchWorkerMessage, SearchWorkerReply } from './background-builder.js';

const { path, options } = workerData as { path: string; options: SearchIndexBuilderOptions };
let builder: SearchIndexBuilder | null = null;
let failed = false;

const reply = (r: SearchWorkerReply) => parentPort!.postMessage(r);
const fail = (err: unknown) => {
  failed = true;
  builder?.abort();
  reply({
    error: err instanceof CatalogError
      ? { code: err.code, message: err.message, details: err.details }
      : { code: null, message: (err as Error)?.stack ?? String(err) },
  });
};

try {
  builder = createSearchIndexBuilder(path, options);
} catch (err) {
  fail(err);
}

parentPort!.on('message', (msg: SearchWorkerMessage) => {
  if (failed || builder === null) return;
  try {
    if ('entries' in msg) {
      for (const e of msg.entries) builder.add(e);
    } else {
      builder.finish();
      reply({ done: true });
    }
  } catch (err) {
    fail(err);
  }
});
