/**
 * Keeps a mirror from hammering into 429s: every request waits at the gate; a response whose
 * `RateLimit` header says (almost) no requests remain closes the gate until the window resets (`t`),
 * and a 429 closes it for `Retry-After` seconds. All concurrent fetches share one gate.
 *
 * @example
 *   const gate = createRateGate({ now: Date.now, sleep });
 *   await gate.wait();  gate.observe(res.headers, res.statusCode);
 */
export interface RateGate {
  wait(): Promise<void>;
  /** Reads RateLimit / Retry-After of a response; returns the pause it imposed in ms (0 for none). */
  observe(headers: Record<string, string | string[] | undefined>, status: number): number;
}

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const header = (h: Record<string, string | string[] | undefined>, name: string) => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/** `"standard";r=0;t=42` → { remaining: 0, reset: 42 } (draft-ietf-httpapi-ratelimit-headers). */
export function parseRateLimit(value: string | undefined): { remaining: number; reset: number } | null {
  if (!value) return null;
  const r = /;\s*r=(\d+)/.exec(value);
  const t = /;\s*t=(\d+)/.exec(value);
  return r && t ? { remaining: Number(r[1]), reset: Number(t[1]) } : null;
}

/** Retry-After as seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * `reserve`: requests that may be in flight at once. The gate closes when fewer than that remain, so
 * the requests already sent use up the window instead of running into 429s.
 */
export function createRateGate(clock: Clock, reserve = 1): RateGate {
  let openAt = 0;
  return {
    async wait() {
      // Loop: another response may have pushed the gate further while this one slept.
      for (let wait = openAt - clock.now(); wait > 0; wait = openAt - clock.now()) await clock.sleep(wait);
    },
    observe(headers, status) {
      const now = clock.now();
      let pauseS = 0;
      if (status === 429) pauseS = parseRetryAfter(header(headers, 'retry-after'), now) ?? 1;
      const limit = parseRateLimit(header(headers, 'ratelimit'));
      if (limit && limit.remaining < reserve) pauseS = Math.max(pauseS, limit.reset);
      if (pauseS > 0) openAt = Math.max(openAt, now + pauseS * 1000);
      return pauseS * 1000;
    },
  };
}
