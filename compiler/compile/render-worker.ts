/** Worker-thread entry of the render pool (pool.ts): renders batches of entity jobs (entity-jobs.ts). */
import { serveThread } from '../threads/thread.js';
import { renderService } from './entity-jobs.js';

serveThread(renderService);
