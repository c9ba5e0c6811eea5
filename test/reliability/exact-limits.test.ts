/**
 * Exact limits (issue 6). Real server with two workers: 400 concurrent requests of one key over 40
 * connections get exactly the quota, each remaining count once. Injectable clock through
 * app.request: windows roll over at the exact millisecond, and a fast-check model of random request
 * bursts and clock jumps matches "min(quota, requests) allowed per window" in every window.
 */
import fc from 'fast-check';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyStore } from '../../proxy/keys/store.js';
import { windowStartOf } from '../../proxy/limits/counter.js';
import { openStateDb } from '../../proxy/state/open.js';
import { auditRows, bearer, tempDir } from '../helpers/auth-fixtures.js';
import { fixtureWorld, type FixtureWorld } from '../helpers/fixture-app.js';
import { startLoad } from '../helpers/load.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { writeFixtureSnapshot } from '../helpers/snapshot-fixture.js';

const QUOTA = 100;
const WINDOW_MS = 60_000;

describe('exact quota on a real server with two workers', () => {
  let dir: string;
  let cleanup: () => void;
  let server: ServerProcess | null = null;
  beforeAll(async () => {
    const tmp = tempDir('catalog-limits-e2e-');
    dir = tmp.dir;
    cleanup = tmp.cleanup;
    await writeFixtureSnapshot(join(dir, 'snapshots'));
  });
  afterAll(() => {
    server?.child.kill('SIGKILL');
    cleanup?.();
  });

  it(`when 400 requests of one free key arrive at once over 40 connections then exactly ${QUOTA} are allowed, each remaining count once`, async () => {
    const state = openStateDb(join(dir, 'state.sqlite'));
    const { key } = createKeyStore(state).mint({ tenant: 'acme', tier: 'free' });
    state.close();
    server = await startServerProcess(['serve', '--snapshots', join(dir, 'snapshots'), '--state', join(dir, 'state.sqlite'), '--port', '0', '--workers', '2'], {
      env: { CATALOG_TIER_LIMITS: `free=${QUOTA}` },
    });
    // The burst must fall in one window for "exactly" to be one number: wait out the last 5 s of one.
    const intoWindow = Date.now() % WINDOW_MS;
    if (intoWindow > WINDOW_MS - 5_000) await sleep(WINDOW_MS - intoWindow + 50);
    const load = startLoad({ url: server.url, paths: ['/v1/catalog/summary'], headers: { authorization: `Bearer ${key}` }, connections: 40, maxRequests: 400 });
    const result = await load.finished();
    server.child.kill('SIGTERM');
    await server.exited;
    server = null;
    expect(result.failed).toEqual([]);
    expect(result.received).toHaveLength(400);
    const ok = result.received.filter((r) => r.status === 200);
    expect(ok).toHaveLength(QUOTA);
    const remaining = ok.map((r) => Number(/;r=(\d+);/.exec(r.rateLimit ?? '')?.[1])).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: QUOTA }, (_, i) => i));
    expect(result.received.filter((r) => r.status === 429)).toHaveLength(400 - QUOTA);
    const check = openStateDb(join(dir, 'state.sqlite'));
    const rows = auditRows(check);
    check.close();
    expect(new Set(rows.map((r) => windowStartOf(r.ts_ms))).size).toBe(1);
    expect(rows.filter((r) => r.status === 200)).toHaveLength(QUOTA);
  }, 60_000);
});

describe('windows roll over on an injectable clock', () => {
  let w: FixtureWorld;
  afterAll(() => w?.close());

  it('when the quota is spent then the last millisecond of the window is still refused and its first millisecond is allowed with the whole quota', async () => {
    w = await fixtureWorld();
    const app = w.app({ env: { CATALOG_TIER_LIMITS: 'free=3' } });
    const windowStart = windowStartOf(w.clock.now) * 1000;
    const call = () => app.request('/v1/catalog/summary', { headers: bearer(w.acme.key) });
    for (let i = 0; i < 3; i++) expect((await call()).status).toBe(200);
    w.clock.now = windowStart + WINDOW_MS - 1;
    const last = await call();
    expect(last.status).toBe(429);
    expect(last.headers.get('Retry-After')).toBe('1');
    expect(last.headers.get('RateLimit')).toBe('"free";r=0;t=1');
    w.clock.now = windowStart + WINDOW_MS;
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call()).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // A jump over many windows starts from a fresh count too.
    w.clock.now = windowStart + 17 * WINDOW_MS + 59_999;
    const far = await call();
    expect(far.status).toBe(200);
    expect(far.headers.get('RateLimit')).toBe('"free";r=2;t=1');
  });

  it('when random bursts of concurrent requests meet random clock jumps (fast-check, 60 runs) then every window allows exactly min(quota, requests made in it)', async () => {
    const quota = 5;
    const app = w.app({ env: { CATALOG_TIER_LIMITS: `free=${quota}` } });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ jumpMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3 * WINDOW_MS })), burst: fc.integer({ min: 1, max: 12 }) }), { minLength: 1, maxLength: 8 }),
        async (steps) => {
          // A fresh key per run: its counters start empty, without rebuilding a world for each run.
          const { key } = createKeyStore(w.state, { clock: w.clock }).mint({ tenant: 'model', tier: 'free' });
          const made = new Map<number, number>();
          const allowed = new Map<number, number>();
          for (const step of steps) {
            w.clock.now += step.jumpMs;
            const windowStart = windowStartOf(w.clock.now);
            made.set(windowStart, (made.get(windowStart) ?? 0) + step.burst);
            const answers = await Promise.all(Array.from({ length: step.burst }, () => app.request('/v1/catalog/summary', { headers: bearer(key) })));
            allowed.set(windowStart, (allowed.get(windowStart) ?? 0) + answers.filter((a) => a.status === 200).length);
          }
          for (const [windowStart, n] of made) expect(allowed.get(windowStart)).toBe(Math.min(quota, n));
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);
});
