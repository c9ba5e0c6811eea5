/**
 * The proxy's Prometheus metrics (prom-client), registered in a registry passed in by the caller, so
 * nothing is global and a test gets a fresh set. Per request the app pays one counter increment and
 * one histogram observation (about 1 µs together, measured); everything read from elsewhere (the
 * current snapshot, the object cache's counts) is read when a scrape asks, in `collect()`.
 *
 * Names and labels are bounded: `route` is a route pattern (`/v1/cards/:id`) or `(unmatched)`, never
 * a raw path, and `status` is an HTTP status, so the series count does not grow with traffic.
 *
 * Each metric carries the aggregator that cluster-metrics.ts uses to merge the workers' registries:
 * counters and histograms add up, the snapshot gauges take the maximum.
 *
 * @example
 *   const registry = new Registry();
 *   const metrics = createProxyMetrics({ registry, snapshots, cache });
 *   metrics.request('/v1/cards/:id', 200, 0.0012);
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { SnapshotSource } from '../../snapshots/store/types.js';

/** Seconds; the proxy answers a cached card in well under a millisecond, a cold search in tens. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** Seconds; a group commit is tens of microseconds, a contended one a few milliseconds. */
export const AUDIT_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5];
/** The statuses with their own counter: refused callers an operator watches for. */
export const DENIED_STATUSES = [401, 403, 429] as const;

export const CACHE_HITS = 'catalog_object_cache_hits_total';
export const CACHE_MISSES = 'catalog_object_cache_misses_total';

/** What the metrics read from the object cache at scrape time. */
export interface CacheCounts {
  readonly hits: number;
  readonly misses: number;
  readonly bytes: number;
}

export interface ProxyMetrics {
  /** One answered request: its route pattern, status and time from arrival to response. */
  request(route: string, status: number, seconds: number): void;
  /** One audit row committed: the time the request waited for its group commit. */
  auditWrite(seconds: number): void;
}

export interface ProxyMetricsDeps {
  registry: Registry;
  snapshots: SnapshotSource;
  cache: CacheCounts;
  /** Wall clock in ms, for the snapshot's age (Date.now by default). */
  clock?: () => number;
}

/** `20261122T023109Z-06f169c0` → its creation time in ms (the id starts with it), or null. */
export function snapshotTimeOf(id: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z-/.exec(id);
  if (!m) return null;
  const t = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  return Number.isFinite(t) ? t : null;
}

export function createProxyMetrics(deps: ProxyMetricsDeps): ProxyMetrics {
  const { registry, snapshots, cache } = deps;
  const clock = deps.clock ?? Date.now;
  const registers = [registry];

  const requests = new Counter({
    name: 'catalog_http_requests_total',
    help: 'Requests answered, by route pattern and status.',
    labelNames: ['route', 'status'] as const,
    registers,
  });
  const latency = new Histogram({
    name: 'catalog_http_request_duration_seconds',
    help: 'Time from a request\'s arrival to its response (audit row committed), by route pattern.',
    labelNames: ['route'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const denied = new Counter({
    name: 'catalog_http_denied_total',
    help: 'Requests refused: 401 (no valid credential), 403 (route not open to the caller), 429 (rate limited).',
    labelNames: ['status'] as const,
    registers,
  });
  // Present at 0 from the start, so a rate() over them works before the first refusal.
  for (const status of DENIED_STATUSES) denied.inc({ status: String(status) }, 0);
  const audit = new Histogram({
    name: 'catalog_audit_write_duration_seconds',
    help: 'Time a bearer request waited for the group commit that holds its audit row.',
    buckets: AUDIT_BUCKETS,
    registers,
  });

  // Read at scrape time (a readlink), so the value is the pointer now, whatever was served last.
  const currentSnapshot = () => snapshots.current().then((r) => r?.id ?? null, () => null);
  new Gauge({
    name: 'catalog_snapshot_info',
    help: 'The snapshot the `current` pointer names (value 1, id in the label).',
    labelNames: ['snapshot_id'] as const,
    aggregator: 'max',
    registers,
    async collect() {
      const id = await currentSnapshot();
      this.reset();
      if (id !== null) this.set({ snapshot_id: id }, 1);
    },
  });
  new Gauge({
    name: 'catalog_snapshot_age_seconds',
    help: 'Seconds since the current snapshot was compiled (from its id); absent before the first publish.',
    aggregator: 'max',
    registers,
    async collect() {
      const id = await currentSnapshot();
      const made = id === null ? null : snapshotTimeOf(id);
      this.reset();
      if (made !== null) this.set(Math.max(0, (clock() - made) / 1000));
    },
  });

  // The cache counts live in the cache (plain integers, no cost per lookup); a scrape adds what
  // was counted since the last scrape.
  const countedAtScrape = (name: string, help: string, read: () => number) => {
    let seen = 0;
    new Counter({
      name,
      help,
      registers,
      collect() {
        const now = read();
        this.inc(now - seen);
        seen = now;
      },
    });
  };
  countedAtScrape(CACHE_HITS, 'Object cache lookups that found the object in memory.', () => cache.hits);
  countedAtScrape(CACHE_MISSES, 'Object cache lookups that had to read the snapshot.', () => cache.misses);
  new Gauge({
    name: 'catalog_object_cache_bytes',
    help: 'Bytes held by the object cache (bounded by --cache-mb per process).',
    registers,
    collect() {
      this.set(cache.bytes);
    },
  });

  return {
    request(route, status, seconds) {
      const code = String(status);
      requests.inc({ route, status: code });
      latency.observe({ route }, seconds);
      if (status === 401 || status === 403 || status === 429) denied.inc({ status: code });
    },
    auditWrite(seconds) {
      audit.observe(seconds);
    },
  };
}
