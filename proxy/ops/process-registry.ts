/**
 * A metrics registry for one process of the server, holding prom-client's default process metrics
 * (resident memory, heap, event-loop lag, GC, open handles) under a `process` label (`single`,
 * `primary`, `worker-<n>`), so that across a cluster each process keeps its own series (a leaking
 * or stalled worker shows as itself) and `sum()` gives the whole server.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';

export function createProcessRegistry(processLabel: string): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, labels: { process: processLabel } });
  return registry;
}
