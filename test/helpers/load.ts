/**
 * Concurrent load for the crash, limit and shutdown tests: `connections` loops, each on its own
 * keep-alive connection, send requests until stopped (or until the server refuses connections) and
 * record what the client really received: status, X-Request-Id and whether the body arrived whole.
 */
import { Agent, request } from 'undici';

export interface Received {
  status: number;
  requestId: string;
  /** Body bytes received (the whole body: a cut one is recorded as failed). */
  bytes: number;
  /** The RateLimit header, when sent. */
  rateLimit?: string;
}

export interface LoadResult {
  received: Received[];
  /** Requests that got no complete answer (connection refused, reset, cut body). */
  failed: { error: string; hadHeaders: boolean }[];
}

export interface Load {
  /** Stops sending and resolves once every request in flight has ended. */
  stop(): Promise<LoadResult>;
  /** With `maxRequests`: resolves once all of them have ended. */
  finished(): Promise<LoadResult>;
  /** Resolves once `n` answers have been received. */
  receivedAtLeast(n: number): Promise<void>;
  readonly result: LoadResult;
}

export function startLoad(options: { url: string; paths: string[]; headers: Record<string, string>; connections: number; maxRequests?: number }): Load {
  const agent = new Agent({ connections: options.connections, pipelining: 1 });
  const result: LoadResult = { received: [], failed: [] };
  let stopped = false;
  let sent = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  const notify = () => {
    for (const w of waiters.splice(0)) {
      if (result.received.length >= w.n) w.resolve();
      else waiters.push(w);
    }
  };

  const loop = async (i: number) => {
    while (!stopped && (options.maxRequests === undefined || sent < options.maxRequests)) {
      sent++;
      const path = options.paths[(i + sent) % options.paths.length];
      let hadHeaders = false;
      try {
        const res = await request(`${options.url}${path}`, { headers: options.headers, dispatcher: agent });
        hadHeaders = true;
        const body = Buffer.from(await res.body.arrayBuffer());
        result.received.push({ status: res.statusCode, requestId: String(res.headers['x-request-id']), bytes: body.length, rateLimit: res.headers.ratelimit as string | undefined });
        notify();
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
        result.failed.push({ error: code, hadHeaders });
        // The server is gone or going: stop this loop rather than spin on refused connections.
        if (code === 'ECONNREFUSED') return;
      }
    }
  };
  const loops = Promise.all(Array.from({ length: options.connections }, (_, i) => loop(i)));

  const finished = async () => {
    await loops;
    await agent.close().catch(() => undefined);
    return result;
  };
  return {
    stop() {
      stopped = true;
      return finished();
    },
    finished,
    receivedAtLeast(n) {
      return new Promise((resolve) => {
        waiters.push({ n, resolve });
        notify();
      });
    },
    result,
  };
}
