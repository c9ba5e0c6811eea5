/** Worker-thread entry of the bulk files (background-bulk.ts). */
import { serveThread } from '../threads/thread.js';
import { bulkService } from './background-bulk.js';

serveThread(bulkService);
