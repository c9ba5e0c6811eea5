/**
 * Turns the metrics of one or more processes (each a `registry.getMetricsAsJSON()`) into one
 * Prometheus text page: prom-client's AggregatorRegistry.aggregate merges them by each metric's
 * aggregator (sum for counters and histograms), and the object cache's hit ratio is computed here,
 * from the merged counts, because a ratio cannot be added up across workers.
 *
 * @example
 *   const text = await renderMetrics([await registry.getMetricsAsJSON()]);
 */
import { AggregatorRegistry, Gauge, Registry } from 'prom-client';
import { CACHE_HITS, CACHE_MISSES } from './metrics.js';

export type ProcessMetrics = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

function total(parts: readonly ProcessMetrics[], name: string): number {
  let sum = 0;
  for (const part of parts) {
    for (const metric of part) {
      if (metric.name !== name) continue;
      for (const v of metric.values) sum += v.value;
    }
  }
  return sum;
}

export interface RenderExtras {
  /** Cluster only: workers that answered the scrape, and those that did not in time. */
  workers?: { answered: number; missing: number };
}

export async function renderMetrics(parts: readonly ProcessMetrics[], extras: RenderExtras = {}): Promise<string> {
  const merged = AggregatorRegistry.aggregate(parts as ProcessMetrics[]);
  const hits = total(parts, CACHE_HITS);
  const misses = total(parts, CACHE_MISSES);
  // No lookups yet: no ratio (0 would read as "every lookup missed").
  if (hits + misses > 0) {
    const ratio = new Gauge({
      name: 'catalog_object_cache_hit_ratio',
      help: 'Object cache hits / lookups since start, over all processes (for a recent window use rate() of the hits and misses counters).',
      registers: [],
    });
    ratio.set(hits / (hits + misses));
    merged.registerMetric(ratio);
  }
  if (extras.workers) {
    const workers = new Gauge({
      name: 'catalog_metrics_workers',
      help: 'Cluster workers whose metrics this scrape holds (answered) or lacks (missing: no answer in time).',
      labelNames: ['state'] as const,
      registers: [],
    });
    workers.set({ state: 'answered' }, extras.workers.answered);
    workers.set({ state: 'missing' }, extras.workers.missing);
    merged.registerMetric(workers);
  }
  return merged.metrics();
}
