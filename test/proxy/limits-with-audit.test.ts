/**
 * The rate-limit count shares its audit row's commit (proxy/audit/settle.ts): the request is
 * counted once its answer exists, in the window it arrived in, and an answer over the limit is
 * replaced by the 429 before it leaves. These tests pin what that must not change (the 429 carries
 * nothing of the dropped answer; its row reads as before) and what it adds (a key at its limit in a window
 * no longer reaches the routes in that window; a request answered after its window ended is counted
 * where it arrived).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SnapshotReader, SnapshotSource } from '../../snapshots/store/types.js';
import { createFsSnapshotSource } from '../../snapshots/store/fs.js';
import { auditRows, authHarness, bearer, INTERNAL_KEY, T0, type AuthHarness } from '../helpers/auth-fixtures.js';
import { compiledCatalog, type CompiledCatalog } from '../helpers/compiled-catalog.js';

let catalog: CompiledCatalog;
let h: AuthHarness;
beforeAll(async () => {
  catalog = await compiledCatalog();
});
afterEach(() => h?.close());

/** The compiled snapshot, counting object reads and running `onRead` before each one. */
function watchedSnapshots(onRead: () => void = () => undefined): { source: SnapshotSource; reads: () => number } {
  const inner = createFsSnapshotSource(catalog.root);
  let reads = 0;
  const watch = (r: SnapshotReader | null): SnapshotReader | null => r && {
    ...r,
    get: (key) => {
      reads++;
      onRead();
      return r.get(key);
    },
  };
  return {
    source: { current: async () => watch(await inner.current()), open: async (id) => watch(await inner.open(id)) },
    reads: () => reads,
  };
}

const env = (limits: string) => ({ CATALOG_INTERNAL_KEY: INTERNAL_KEY, CATALOG_TIER_LIMITS: limits });
const gzipped = (key: string) => ({ ...bearer(key), 'Accept-Encoding': 'gzip' });

describe('the count and the audit row in one commit', () => {
  it('when answers are ready but over the limit then the 429 replaces them with nothing of theirs, and their rows read as a refusal before routing', async () => {
    h = authHarness({ env: env('free=2'), snapshots: watchedSnapshots().source });
    const { key } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    const card = `/v1/cards/${catalog.cardIds[0]}`;
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await h.app.request(card, { headers: gzipped(key) }));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 429, 429]);
    expect(answers[1].headers.get('ETag')).not.toBeNull();
    expect(answers[1].headers.get('RateLimit')).toBe('"free";r=0;t=30');
    for (const refused of answers.slice(2)) {
      // The third was answered by the route, then refused by its count; the fourth never reached it.
      for (const name of ['ETag', 'Content-Encoding', 'X-Snapshot-Id']) expect(refused.headers.get(name), name).toBeNull();
      expect(refused.headers.get('Content-Type')).toBe('application/json');
      expect(refused.headers.get('RateLimit-Policy')).toBe('"free";q=2;w=60');
      expect(refused.headers.get('RateLimit')).toBe('"free";r=0;t=30');
      expect(refused.headers.get('Retry-After')).toBe('30');
      const body = await refused.text();
      expect(JSON.parse(body)).toMatchObject({ error: 'rate_limited', requestId: refused.headers.get('X-Request-Id') });
      expect(Number(refused.headers.get('Content-Length'))).toBe(Buffer.byteLength(body));
    }
    const rows = auditRows(h.state);
    expect(rows.map((r) => [r.status, r.route, r.snapshot_id === null])).toEqual([
      [200, '/v1/cards/:id', false], [200, '/v1/cards/:id', false], [429, '(unmatched)', true], [429, '(unmatched)', true],
    ]);
    expect(rows[2].bytes).toBe(Number(answers[2].headers.get('Content-Length')));
    expect(h.state.sqlite.prepare('SELECT count FROM rate_counters').get()).toEqual({ count: 4 });
  });

  it('when a key reached its limit in this window then its next requests there do not reach the routes, and in the next window they do again', async () => {
    const snaps = watchedSnapshots();
    h = authHarness({ env: env('free=1'), snapshots: snaps.source });
    const { key } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    // Unknown ids: every one is a read of the store (misses are not cached), so reads count route work.
    const call = (i: number) => h.app.request(`/v1/cards/no-such-card-${i}`, { headers: bearer(key) });
    expect((await call(1)).status).toBe(404);
    expect(snaps.reads()).toBe(1);
    // Its count is at the limit now, so the next one cannot be within it: refused before the route.
    for (let i = 2; i < 8; i++) expect((await call(i)).status).toBe(429);
    expect(snaps.reads()).toBe(1);
    expect(h.state.sqlite.prepare('SELECT count FROM rate_counters').get()).toEqual({ count: 7 });
    expect(auditRows(h.state).map((r) => r.status)).toEqual([404, 429, 429, 429, 429, 429, 429]);
    h.clock.now = T0 + 30_000; // the next window
    expect((await call(8)).status).toBe(404);
    expect(snaps.reads()).toBe(2);
  });

  it('when a request arrives in the last millisecond of a window and is answered in the next then it is counted in the window it arrived in', async () => {
    let lateAnswer = false;
    const snaps = watchedSnapshots(() => {
      if (lateAnswer) h.clock.now = T0 + 30_000;
    });
    h = authHarness({ env: env('free=2'), snapshots: snaps.source });
    const { key } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    const card = `/v1/cards/${catalog.cardIds[1]}`;
    expect((await h.app.request(card, { headers: bearer(key) })).status).toBe(200);
    h.clock.now = T0 + 29_999;
    lateAnswer = true;
    const late = await h.app.request(`/v1/cards/${catalog.cardIds[2]}`, { headers: bearer(key) });
    lateAnswer = false;
    // Counted in the window it arrived in: the last of that window's quota, with a second left.
    expect(late.status).toBe(200);
    expect(late.headers.get('RateLimit')).toBe('"free";r=0;t=1');
    // The new window's quota is whole.
    const next = await h.app.request(card, { headers: bearer(key) });
    expect(next.status).toBe(200);
    expect(next.headers.get('RateLimit')).toBe('"free";r=1;t=60');
    const windows = h.state.sqlite.prepare('SELECT window_start, count FROM rate_counters ORDER BY window_start').all();
    const w0 = Math.floor(T0 / 60_000) * 60;
    expect(windows).toEqual([{ window_start: w0, count: 2 }, { window_start: w0 + 60, count: 1 }]);
  });

  it('when the clock passes a window boundary between the arrival and the count mark then the request is counted in the window its audit row is dated in', async () => {
    // Every read of the clock after the arrival's is in the next window (a slow key look-up, say).
    let boundary = false;
    const clock = Object.assign(() => {
      const t = clock.now;
      if (boundary) clock.now = T0 + 30_000;
      return t;
    }, { now: T0 + 29_999 });
    h = authHarness({ env: env('free=5'), snapshots: watchedSnapshots().source, clock });
    const { key } = h.keys.mint({ tenant: 'acme', tier: 'free' });
    boundary = true;
    expect((await h.app.request(`/v1/cards/${catalog.cardIds[0]}`, { headers: bearer(key) })).status).toBe(200);
    const rows = auditRows(h.state);
    expect(rows).toHaveLength(1);
    const counted = h.state.sqlite.prepare('SELECT window_start, count FROM rate_counters').all();
    expect(counted).toEqual([{ window_start: Math.floor(rows[0].ts_ms / 60_000) * 60, count: 1 }]);
  });
});
