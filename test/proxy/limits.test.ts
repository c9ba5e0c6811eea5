/** Rate limits (API.md §5): per key, fixed 60 s windows, exact across processes sharing the state file. */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRateLimiter, RATE_HIT_SQL } from '../../proxy/limits/counter.js';
import { openStateDb } from '../../proxy/state/open.js';
import { auditRows, authHarness, bearer, INTERNAL_KEY, T0, tempDir, type AuthHarness } from '../helpers/auth-fixtures.js';
import { buildLimiterChild, runLimiterChild } from '../helpers/state-child.js';

let h: AuthHarness;
afterEach(() => h?.close());

const env = (limits: string) => ({ CATALOG_INTERNAL_KEY: INTERNAL_KEY, CATALOG_TIER_LIMITS: limits });
const counters = (harness: AuthHarness) => harness.state.sqlite.prepare('SELECT key_id, window_start, count FROM rate_counters ORDER BY window_start').all();

describe('rate limit through the app', () => {
  it('when a key makes requests then RateLimit counts down and the window end is in t', async () => {
    h = authHarness({ env: env('standard=5') });
    const { key } = h.keys.mint({ tenant: 'acme', tier: 'standard' });
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await h.app.request('/v1/catalog/summary', { headers: bearer(key) });
      expect(res.headers.get('RateLimit-Policy')).toBe('"standard";q=5;w=60');
      seen.push(res.headers.get('RateLimit')!);
      h.clock.now += 10_000;
    }
    expect(seen).toEqual(['"standard";r=4;t=30', '"standard";r=3;t=20', '"standard";r=2;t=10']);
  });

  it('when the limit is reached then the next request is 429 until the window ends, then it is allowed again', async () => {
    h = authHarness({ env: env('free=2') });
    const { key } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    const call = () => h.app.request('/v1/catalog/summary', { headers: bearer(key) });
    expect((await call()).status).not.toBe(429);
    expect((await call()).status).not.toBe(429);
    h.clock.now = T0 + 25_500; // 4.5 s before the window ends
    const limited = await call();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).toBe('5');
    expect(await limited.json()).toMatchObject({ error: 'rate_limited' });
    h.clock.now = T0 + 30_000; // next window
    const again = await call();
    expect(again.status).not.toBe(429);
    expect(again.headers.get('RateLimit')).toBe('"free";r=1;t=60');
    expect(auditRows(h.state).map((r) => r.status).includes(429)).toBe(true);
  });

  it('when one key is limited then another key of the same tenant is not', async () => {
    h = authHarness({ env: env('free=1') });
    const a = h.keys.mint({ tenant: 'acme', tier: 'free' });
    const b = h.keys.mint({ tenant: 'acme', tier: 'free' });
    await h.app.request('/v1/catalog/summary', { headers: bearer(a.key) });
    expect((await h.app.request('/v1/catalog/summary', { headers: bearer(a.key) })).status).toBe(429);
    expect((await h.app.request('/v1/catalog/summary', { headers: bearer(b.key) })).status).not.toBe(429);
  });

  it('when the configured tier limits are unset then the defaults of API.md §5 apply', async () => {
    h = authHarness({ env: {} });
    for (const [tier, q] of [['free', 60], ['standard', 600], ['enterprise', 6000]] as const) {
      const { key } = h.keys.mint({ tenant: 'acme', tier });
      const res = await h.app.request('/v1/catalog/summary', { headers: bearer(key) });
      expect(res.headers.get('RateLimit-Policy')).toBe(`"${tier}";q=${q};w=60`);
    }
  });

  it('when a new window starts then the counters of finished windows are pruned', async () => {
    h = authHarness();
    const { key } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    await h.app.request('/v1/catalog/summary', { headers: bearer(key) });
    h.clock.now = T0 + 120_000;
    await h.app.request('/v1/catalog/summary', { headers: bearer(key) });
    const windowNow = Math.floor((T0 + 120_000) / 60_000) * 60;
    expect(counters(h)).toEqual([{ key_id: expect.any(String), window_start: windowNow, count: 1 }]);
  });
});

describe('rate limit across processes', () => {
  it('when two processes hit the same key concurrently then exactly the limit is allowed in total', async () => {
    const tmp = tempDir('catalog-limits-');
    try {
      const file = join(tmp.dir, 'state.sqlite');
      openStateDb(file).close(); // create and migrate once, before the race
      const script = buildLimiterChild(join(tmp.dir, 'child'));
      // The limit is above what one process sends, so the total can only be exact if both
      // processes' increments landed on the same counter without a lost update.
      const hits = 2000;
      const limit = 3000;
      const startAt = Date.now() + 1500;
      const results = await Promise.all([0, 1].map(() => runLimiterChild(script, [file, 'AbCd1234', hits, limit, T0, startAt])));
      expect(results[0].allowed + results[1].allowed).toBe(limit);
      const state = openStateDb(file);
      expect(state.sqlite.prepare('SELECT count FROM rate_counters WHERE key_id = ?').get('AbCd1234')).toEqual({ count: 2 * hits });
      state.close();
    } finally {
      tmp.cleanup();
    }
  }, 20_000);

  it('when the limiter runs then the statement is the single atomic upsert', () => {
    expect(RATE_HIT_SQL).toMatch(/ON CONFLICT \(key_id, window_start\) DO UPDATE SET count = count \+ 1 RETURNING count/);
    const tmp = tempDir();
    const state = openStateDb(join(tmp.dir, 's.sqlite'));
    const limiter = createRateLimiter(state, { limits: { free: 2, standard: 1, enterprise: 1 }, clock: () => T0 });
    expect([1, 2, 3].map(() => limiter.hit('k', 'free').allowed)).toEqual([true, true, false]);
    state.close();
    tmp.cleanup();
  });
});
