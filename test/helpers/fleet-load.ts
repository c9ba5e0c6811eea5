/**
 * Clients of the fleet tests: bearer GETs spread over several base URLs (the hosts and the load
 * balancer), every answer kept with its status, X-Request-Id and Retry-After, so a test can match
 * what the clients saw against the audit rows in PostgreSQL. A request that got no answer (a killed
 * host's connection reset) is kept as status 0: it was not answered, so it needs no row.
 */
export interface Seen {
  target: string;
  status: number;
  requestId: string | null;
  retryAfter: string | null;
  error?: string;
}

export const FLEET_ROUTE = '/v1/catalog/summary';

export async function hit(base: string, key: string, path = FLEET_ROUTE): Promise<Seen> {
  try {
    const res = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    return { target: base, status: res.status, requestId: res.headers.get('x-request-id'), retryAfter: res.headers.get('retry-after') };
  } catch (err) {
    return { target: base, status: 0, requestId: null, retryAfter: null, error: String((err as Error).cause ?? err) };
  }
}

/** `count` requests, `concurrency` at a time, the i-th to targets[i % targets.length]. */
export async function burst(targets: string[], key: string, count: number, concurrency: number): Promise<Seen[]> {
  const seen: Seen[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) seen.push(await hit(targets[i % targets.length], key));
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return seen;
}

/** Clients sending until stop() resolves, one loop per target, `perTarget` loops each. */
export function steadyLoad(targets: string[], key: string, perTarget = 2): { seen: Seen[]; stop(): Promise<Seen[]> } {
  const seen: Seen[] = [];
  let running = true;
  const loop = async (target: string) => {
    while (running) {
      const s = await hit(target, key);
      seen.push(s);
      // A refused connection comes back at once; do not spin on it.
      if (s.status === 0) await new Promise((r) => setTimeout(r, 20));
    }
  };
  const loops = targets.flatMap((t) => Array.from({ length: perTarget }, () => loop(t)));
  return {
    seen,
    async stop() {
      running = false;
      await Promise.all(loops);
      return seen;
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `read` until `done` holds or `timeoutMs` passes; returns the last value read. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, everyMs = 200): Promise<T> {
  const until = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < until) {
    await sleep(everyMs);
    value = await read();
  }
  return value;
}
