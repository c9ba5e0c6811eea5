/** Worker-thread entry of the background search index builder (background-builder.ts). */
import { serveThread } from '../threads/thread.js';
import { searchService } from './background-builder.js';

serveThread(searchService);
