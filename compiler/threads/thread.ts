/**
 * One way to run compile work on a thread: a service (`init` → handler of requests) that answers
 * requests in the order sent, with typed replies. A failure comes back as the same `CatalogError`
 * code (so `catalog compile` exits with the code the work would have on the main thread), any other
 * error as an Error naming the thread. The render pool, the bulk files and the search index all run
 * on it.
 *
 * Inline mode runs the same handler on the calling thread, in the same order: chosen by the caller
 * (`catalog compile --workers 0`, library callers, tests that want one thread), never by whether a
 * compiled file happens to exist. A worker always runs the compiled JavaScript of the service
 * (`dist/…`), also when the caller runs from TypeScript sources under vitest: `npm test` builds first.
 *
 * @example
 *   // bulk-worker.ts (the thread's entry):  serveThread(bulkService);
 *   const bulk = startThread(bulkService, { previousDir }, 'worker');
 *   const file = await bulk.call({ job, dir });      // BulkFile, or throws the worker's CatalogError
 *   await bulk.close();
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parentPort, Worker, workerData, type Transferable } from 'node:worker_threads';
import { CatalogError, type ErrorCode } from '../../snapshots/errors.js';

export type ThreadMode = 'worker' | 'inline';

/** A request handler built once per thread from the thread's `init` data. */
export interface ThreadService<Init, Req, Res> {
  /** For messages: "bulk files", "search index", "render". */
  name: string;
  /** The service's worker entry, as `new URL('./x-worker.js', import.meta.url)` in the service's module. */
  entry: URL;
  create(init: Init): (request: Req) => Res | Promise<Res>;
  /** Objects of a reply to transfer rather than copy (rendered bytes). */
  transfer?(reply: Res): Transferable[];
}

export interface Thread<Req, Res> {
  call(request: Req, transfer?: Transferable[]): Promise<Res>;
  /** Requests sent and not answered yet. */
  pending(): number;
  /** Stops the thread; unanswered calls reject. */
  close(): Promise<void>;
}

/** An error as it crosses a thread boundary: the code survives, the stack is kept for the log. */
export interface ThreadError {
  code: ErrorCode | null;
  message: string;
  details?: Record<string, unknown>;
}

type Reply<Res> = { id: number; ok: Res } | { id: number; error: ThreadError };

export function toThreadError(err: unknown): ThreadError {
  if (err instanceof CatalogError) return { code: err.code, message: err.message, details: err.details };
  return { code: null, message: (err as Error)?.stack ?? String(err) };
}

export function fromThreadError(e: ThreadError, name: string): Error {
  return e.code ? new CatalogError(e.code, e.message, e.details ?? {}) : new Error(`${name} thread failed: ${e.message}`);
}

export function startThread<Init, Req, Res>(service: ThreadService<Init, Req, Res>, init: Init, mode: ThreadMode): Thread<Req, Res> {
  return mode === 'inline' ? inlineThread(service, init) : workerThread(service, init);
}

function workerThread<Init, Req, Res>(service: ThreadService<Init, Req, Res>, init: Init): Thread<Req, Res> {
  const worker = new Worker(compiledEntry(service.entry), { workerData: init });
  const waiting = new Map<number, { resolve: (r: Res) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let failure: Error | null = null;
  const failAll = (err: Error) => {
    failure ??= err;
    for (const w of waiting.values()) w.reject(failure);
    waiting.clear();
  };
  worker.on('message', (reply: Reply<Res>) => {
    const w = waiting.get(reply.id);
    if (!w) return;
    waiting.delete(reply.id);
    if ('ok' in reply) w.resolve(reply.ok);
    else w.reject(fromThreadError(reply.error, service.name));
  });
  worker.on('error', (err) => failAll(err));
  worker.on('exit', (code) => failAll(new Error(`${service.name} thread exited with code ${code}`)));
  return {
    call(request, transfer) {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      const answer = new Promise<Res>((resolve, reject) => waiting.set(id, { resolve, reject }));
      worker.postMessage({ id, request }, transfer ?? []);
      return answer;
    },
    pending: () => waiting.size,
    async close() {
      await worker.terminate();
    },
  };
}

function inlineThread<Init, Req, Res>(service: ThreadService<Init, Req, Res>, init: Init): Thread<Req, Res> {
  const handle = service.create(init);
  // One request at a time, in order, as on a worker.
  let chain: Promise<unknown> = Promise.resolve();
  let inFlight = 0;
  return {
    call(request) {
      inFlight++;
      const answer = chain.then(() => handle(request)).finally(() => inFlight--);
      chain = answer.catch(() => undefined);
      return answer;
    },
    pending: () => inFlight,
    async close() {
      await chain;
    },
  };
}

/**
 * The worker side: answers each request with the service's handler, one after another. Called once
 * at the top of a worker entry file.
 */
export function serveThread<Init, Req, Res>(service: ThreadService<Init, Req, Res>): void {
  const port = parentPort;
  if (port === null) throw new Error(`${service.name}: serveThread runs only on a worker thread`);
  let handle: ((request: Req) => Res | Promise<Res>) | null = null;
  let startFailure: ThreadError | null = null;
  try {
    handle = service.create(workerData as Init);
  } catch (err) {
    startFailure = toThreadError(err);
  }
  let chain: Promise<void> = Promise.resolve();
  port.on('message', ({ id, request }: { id: number; request: Req }) => {
    chain = chain.then(async () => {
      if (handle === null) return port.postMessage({ id, error: startFailure! } satisfies Reply<Res>);
      try {
        const ok = await handle(request);
        port.postMessage({ id, ok } satisfies Reply<Res>, service.transfer?.(ok) ?? []);
      } catch (err) {
        port.postMessage({ id, error: toThreadError(err) } satisfies Reply<Res>);
      }
    });
  });
}

/**
 * The compiled JavaScript of a worker entry: the URL itself when the caller runs compiled, else the
 * same path under dist/ (the caller runs from TypeScript sources, as under vitest).
 */
export function compiledEntry(entry: URL): URL {
  const path = fileURLToPath(entry);
  if (existsSync(path)) return entry;
  const marker = `${'/'}dist${'/'}`;
  if (!path.includes(marker)) {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const inDist = path.startsWith(root) ? `${root}dist/${path.slice(root.length)}` : path;
    if (existsSync(inDist)) return pathToFileURL(inDist);
  }
  throw new CatalogError('internal', `the worker file ${path} is missing: run \`npm run build\` first`);
}
