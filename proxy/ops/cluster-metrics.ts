/**
 * Metrics across node:cluster workers. Each worker counts its own requests in its own registry; the
 * primary, which serves no request, serves the admin port and, on each scrape, asks every worker
 * for its registry over the cluster IPC channel, then merges the answers with its own
 * (render-metrics.ts).
 *
 * Why not prom-client's `new AggregatorRegistry().clusterMetrics()`: it keeps its registries and
 * listeners in module state (`AggregatorRegistry.setRegistries`), fails the whole scrape when one
 * worker does not answer within 5 s, and leaves out the primary's own process metrics. Here a
 * worker that does not answer in time (being restarted, stuck) is left out and counted in
 * `catalog_metrics_workers{state="missing"}`, and the page is still served.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Registry } from 'prom-client';
import { renderMetrics, type ProcessMetrics } from './render-metrics.js';

const REQUEST = 'catalog:metrics-request';
const RESPONSE = 'catalog:metrics-response';
/** A scrape waits at most this long for the workers (Prometheus' default scrape timeout is 10 s). */
export const WORKER_ANSWER_TIMEOUT_MS = 2_000;

interface MetricsRequest {
  type: typeof REQUEST;
  id: number;
}
interface MetricsResponse {
  type: typeof RESPONSE;
  id: number;
  metrics: ProcessMetrics | null;
}

const isRequest = (m: unknown): m is MetricsRequest => (m as MetricsRequest | null)?.type === REQUEST;
const isResponse = (m: unknown): m is MetricsResponse => (m as MetricsResponse | null)?.type === RESPONSE;

/** In a worker: answers the primary's scrapes with this registry. Returns the function that stops it. */
export function answerMetricsRequests(registry: Registry): () => void {
  const onMessage = (message: unknown) => {
    if (!isRequest(message)) return;
    // A failed collect is answered with null (counted missing), never left unanswered.
    void registry.getMetricsAsJSON().catch(() => null).then((metrics) => {
      if (process.connected) process.send?.({ type: RESPONSE, id: message.id, metrics } satisfies MetricsResponse);
    });
  };
  process.on('message', onMessage);
  return () => {
    process.off('message', onMessage);
  };
}

export interface ClusterMetrics {
  /** The Prometheus text of the primary plus every worker that answered in time. */
  collect(): Promise<string>;
  close(): void;
}

/** In the primary: `own` holds the primary's process metrics. */
export function createClusterMetrics(own: Registry, options: { timeoutMs?: number } = {}): ClusterMetrics {
  const timeoutMs = options.timeoutMs ?? WORKER_ANSWER_TIMEOUT_MS;
  let nextId = 0;
  const waiting = new Map<number, { answers: ProcessMetrics[]; left: number; done: () => void }>();

  const onMessage = (_worker: Worker, message: unknown) => {
    if (!isResponse(message)) return;
    const scrape = waiting.get(message.id);
    if (!scrape) return; // answered after its scrape timed out
    if (message.metrics) scrape.answers.push(message.metrics);
    if (--scrape.left === 0) scrape.done();
  };
  cluster.on('message', onMessage);

  return {
    async collect() {
      const id = ++nextId;
      const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && w.isConnected());
      const answers: ProcessMetrics[] = [];
      await new Promise<void>((resolve) => {
        const timer = setTimeout(finish, timeoutMs);
        function finish() {
          clearTimeout(timer);
          waiting.delete(id);
          resolve();
        }
        waiting.set(id, { answers, left: workers.length, done: finish });
        if (workers.length === 0) finish();
        for (const w of workers) {
          // A worker exiting right now cannot take the message; it is then counted missing.
          w.send({ type: REQUEST, id } satisfies MetricsRequest, (err: Error | null) => {
            if (err) onMessage(w, { type: RESPONSE, id, metrics: null } satisfies MetricsResponse);
          });
        }
      });
      const mine = await own.getMetricsAsJSON();
      return renderMetrics([mine, ...answers], { workers: { answered: answers.length, missing: workers.length - answers.length } });
    },
    close() {
      cluster.off('message', onMessage);
    },
  };
}
