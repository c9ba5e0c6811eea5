/** Worker-thread entry of the read-ahead thread (read-ahead.ts). */
import { serveThread } from '../threads/thread.js';
import { readAheadService } from './read-ahead.js';

serveThread(readAheadService);
