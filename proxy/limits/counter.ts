/**
 * Per-key request counter (API.md §5): fixed 60 s windows counted in SQLite with one atomic upsert,
 * so every worker process sharing the state file sees the same count and the limit is exact on
 * the host (no read-then-write race: SQLite serialises writers and RETURNING gives the new count).
 *
 * @example
 *   const limiter = createRateLimiter(state, { limits: config.tierLimits });
 *   const d = limiter.hit('4fZk2QpA', 'free');   // { allowed: true, limit: 60, remaining: 59, resetSeconds: 42, ... }
 */
import type { StateDb } from '../state/open.js';
import { RATE_WINDOW_SECONDS, type Tier } from '../tiers.js';

/** Exported so a test (or another process) can run the exact statement the limiter runs. */
export const RATE_HIT_SQL = `INSERT INTO rate_counters (key_id, window_start, count) VALUES (?, ?, 1)
  ON CONFLICT (key_id, window_start) DO UPDATE SET count = count + 1 RETURNING count`;
export const RATE_PRUNE_SQL = 'DELETE FROM rate_counters WHERE window_start < ?';

export interface RateDecision {
  allowed: boolean;
  tier: Tier;
  limit: number;
  /** Requests counted in this window, this one included. */
  count: number;
  remaining: number;
  /** Seconds until the window ends (1..60). */
  resetSeconds: number;
}

export interface RateLimiter {
  /**
   * Counts one request of the key in the window starting at `windowStart` (seconds; default: the
   * window of now). The proxy passes the window the request arrived in, so a request answered a few
   * ms after a window ends still counts where it arrived, and a request refused early because its
   * key was already over the limit in that window is counted in that same window.
   */
  hit(keyId: string, tier: Tier, windowStart?: number): RateDecision;
  /** Deletes the counters of windows before the previous one; returns how many rows went. */
  prune(): number;
}

export function windowStartOf(nowMs: number): number {
  return Math.floor(nowMs / 1000 / RATE_WINDOW_SECONDS) * RATE_WINDOW_SECONDS;
}

/** Seconds until the window starting at `windowStart` ends, as the `t` of the RateLimit header (1..60). */
export function resetSecondsOf(windowStart: number, nowMs: number): number {
  return Math.max(1, Math.ceil(((windowStart + RATE_WINDOW_SECONDS) * 1000 - nowMs) / 1000));
}

/** The decision for a request that made the window's count `count` (every limiter answers with it). */
export function decisionOf(count: number, tier: Tier, limit: number, windowStart: number, nowMs: number): RateDecision {
  return { allowed: count <= limit, tier, limit, count, remaining: Math.max(0, limit - count), resetSeconds: resetSecondsOf(windowStart, nowMs) };
}

export function createRateLimiter(state: StateDb, options: { limits: Readonly<Record<Tier, number>>; clock?: () => number }): RateLimiter {
  const clock = options.clock ?? Date.now;
  const hitStatement = state.sqlite.prepare<[string, number], { count: number }>(RATE_HIT_SQL);
  const pruneStatement = state.sqlite.prepare<[number]>(RATE_PRUNE_SQL);
  // Windows before the previous one are pruned the first time this process sees a new window: one
  // cheap indexed delete a minute, no timer to manage. The previous window stays: a request that
  // arrived in its last milliseconds is counted there when its answer is ready (hit's windowStart).
  let lastPrunedWindow = -1;

  const prune = (windowStart = windowStartOf(clock())) => {
    lastPrunedWindow = windowStart;
    return pruneStatement.run(windowStart - RATE_WINDOW_SECONDS).changes;
  };

  return {
    hit(keyId, tier, windowStart = windowStartOf(clock())) {
      const nowMs = clock();
      // Only forward: a request of the window before, counted just after the new one began, must
      // not prune it again (nor re-run the delete every time the two alternate).
      if (windowStart > lastPrunedWindow) prune(windowStart);
      const { count } = hitStatement.get(keyId, windowStart)!;
      return decisionOf(count, tier, options.limits[tier], windowStart, nowMs);
    },
    prune: () => prune(),
  };
}
