/**
 * The proxy's metrics (proxy/ops/metrics.ts) through the real app and a real prom-client registry,
 * read back as the Prometheus text a scrape gets (render-metrics.ts).
 */
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../proxy/app.js';
import { loadConfig } from '../../proxy/config.js';
import { createKeyStore } from '../../proxy/keys/store.js';
import { snapshotTimeOf } from '../../proxy/ops/metrics.js';
import { renderMetrics } from '../../proxy/ops/render-metrics.js';
import { openStateDb } from '../../proxy/state/open.js';
import { createFsSnapshotSource } from '../../snapshots/store/fs.js';
import { bearer, tempDir, testClock } from '../helpers/auth-fixtures.js';
import { FIXTURE_CARD_IDS, writeFixtureSnapshot } from '../helpers/snapshot-fixture.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

/** The value of one sample line (`name{labels} value`), or undefined when the page lacks it. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function meteredApp(env: NodeJS.ProcessEnv = {}) {
  const tmp = tempDir('catalog-metrics-');
  const fixture = await writeFixtureSnapshot(join(tmp.dir, 'snapshots'));
  const state = openStateDb(join(tmp.dir, 'state.sqlite'));
  cleanups.push(() => state.close(), () => tmp.cleanup());
  // 90 s after the fixture snapshot's id time (20261120T020000Z)
  const clock = testClock(Date.parse('2026-11-20T02:01:30Z'));
  const registry = new Registry();
  const app = createApp({
    db: state, config: loadConfig(env), snapshots: createFsSnapshotSource(fixture.root), clock, metricsRegistry: registry,
    logger: { error: () => undefined, info: () => undefined },
  });
  const { key } = createKeyStore(state, { clock }).mint({ tenant: 'acme', tier: 'free' });
  const scrape = async () => renderMetrics([await registry.getMetricsAsJSON()]);
  return { app, key, fixture, registry, scrape };
}

describe('metrics', () => {
  it('count requests by route pattern and status, time them, and count 401/403/429 on their own', async () => {
    const { app, key, scrape } = await meteredApp({ CATALOG_TIER_LIMITS: 'free=3' });
    const card = `/v1/cards/${FIXTURE_CARD_IDS[0]}`;
    expect((await app.request(card, { headers: bearer(key) })).status).toBe(200);
    expect((await app.request(`/v1/cards/${FIXTURE_CARD_IDS[1]}`, { headers: bearer(key) })).status).toBe(200);
    expect((await app.request('/v1/admin/b2b-keys', { headers: bearer(key) })).status).toBe(403);
    expect((await app.request(card, { headers: bearer(key) })).status).toBe(429);
    expect((await app.request(card)).status).toBe(401);
    expect((await app.request('/healthz')).status).toBe(200);

    const text = await scrape();
    expect(sample(text, 'catalog_http_requests_total{route="/v1/cards/:id",status="200"}')).toBe(2);
    // refused before their handler ran (gate, family guard, rate limit): counted on the route they aimed at
    expect(sample(text, 'catalog_http_requests_total{route="/v1/cards/:id",status="401"}')).toBe(1);
    expect(sample(text, 'catalog_http_requests_total{route="/v1/admin/b2b-keys",status="403"}')).toBe(1);
    expect(sample(text, 'catalog_http_requests_total{route="/v1/cards/:id",status="429"}')).toBe(1);
    expect(sample(text, 'catalog_http_denied_total{status="401"}')).toBe(1);
    expect(sample(text, 'catalog_http_denied_total{status="403"}')).toBe(1);
    expect(sample(text, 'catalog_http_denied_total{status="429"}')).toBe(1);
    expect(sample(text, 'catalog_http_request_duration_seconds_count{route="/v1/cards/:id"}')).toBe(4);
    expect(sample(text, 'catalog_http_request_duration_seconds_bucket{le="+Inf",route="/v1/cards/:id"}')).toBe(4);
    // raw paths never become labels; probes are not counted
    expect(text).not.toContain(FIXTURE_CARD_IDS[0]);
    expect(text).not.toContain('healthz');
    // one audit row per bearer request (2 × 200, 403, 429), each commit timed
    expect(sample(text, 'catalog_audit_write_duration_seconds_count')).toBe(4);
    expect(text).toContain('# TYPE catalog_http_request_duration_seconds histogram');
  });

  it('name the current snapshot and its age from its id, before any request', async () => {
    const { scrape, fixture } = await meteredApp();
    const text = await scrape();
    expect(sample(text, `catalog_snapshot_info{snapshot_id="${fixture.id}"}`)).toBe(1);
    expect(sample(text, 'catalog_snapshot_age_seconds')).toBe(90);
    expect(snapshotTimeOf('20261122T023109Z-06f169c0')).toBe(Date.parse('2026-11-22T02:31:09Z'));
    expect(snapshotTimeOf('not-an-id')).toBeNull();
  });

  it('report the object cache hit ratio from its hits and misses, and no ratio before any lookup', async () => {
    const { app, key, scrape } = await meteredApp();
    expect(await scrape()).not.toContain('catalog_object_cache_hit_ratio');
    const card = `/v1/cards/${FIXTURE_CARD_IDS[0]}`;
    for (let i = 0; i < 4; i++) expect((await app.request(card, { headers: bearer(key) })).status).toBe(200);
    const text = await scrape();
    expect(sample(text, 'catalog_object_cache_misses_total')).toBe(1);
    expect(sample(text, 'catalog_object_cache_hits_total')).toBe(3);
    expect(sample(text, 'catalog_object_cache_hit_ratio')).toBe(0.75);
    expect(sample(text, 'catalog_object_cache_bytes')).toBeGreaterThan(0);
    // a second scrape does not count the same lookups twice
    expect(sample(await scrape(), 'catalog_object_cache_hits_total')).toBe(3);
  });

  it('add up the processes of a cluster and compute the ratio from the sums', async () => {
    const a = await meteredApp();
    const b = await meteredApp();
    const card = `/v1/cards/${FIXTURE_CARD_IDS[0]}`;
    await a.app.request(card, { headers: bearer(a.key) }); // a: 1 miss
    await b.app.request(card, { headers: bearer(b.key) }); // b: 1 miss, then 2 hits
    await b.app.request(card, { headers: bearer(b.key) });
    await b.app.request(card, { headers: bearer(b.key) });
    const text = await renderMetrics(
      [await a.registry.getMetricsAsJSON(), await b.registry.getMetricsAsJSON()],
      { workers: { answered: 2, missing: 0 } },
    );
    expect(sample(text, 'catalog_http_requests_total{route="/v1/cards/:id",status="200"}')).toBe(4);
    expect(sample(text, 'catalog_object_cache_hit_ratio')).toBe(0.5);
    expect(sample(text, 'catalog_metrics_workers{state="answered"}')).toBe(2);
    expect(sample(text, `catalog_snapshot_info{snapshot_id="${a.fixture.id}"}`)).toBe(1); // max, not 2
  });
});
