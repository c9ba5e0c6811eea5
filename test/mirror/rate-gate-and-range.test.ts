/**
 * The mirror's rate gate (fake clock passed in) and the proxy's Range parsing, as plain functions.
 */
import { describe, expect, it } from 'vitest';
import { createRateGate, parseRateLimit, parseRetryAfter } from '../../mirror/rate-gate.js';
import { parseRange, rangeStillValid } from '../../proxy/http/range.js';

function fakeClock() {
  let t = 1_000_000;
  const slept: number[] = [];
  return { clock: { now: () => t, sleep: async (ms: number) => { slept.push(ms); t += ms; } }, slept };
}

describe('rate gate', () => {
  it('when a 429 says Retry-After 7 then the next request waits 7 s', async () => {
    const { clock, slept } = fakeClock();
    const gate = createRateGate(clock, 1);
    expect(gate.observe({ 'retry-after': '7' }, 429)).toBe(7000);
    await gate.wait();
    expect(slept).toEqual([7000]);
  });

  it('when RateLimit says fewer requests remain than are in flight then the gate closes until the window resets', async () => {
    const { clock, slept } = fakeClock();
    const gate = createRateGate(clock, 4);
    expect(gate.observe({ ratelimit: '"enterprise";r=10;t=30' }, 200)).toBe(0);
    expect(gate.observe({ ratelimit: '"enterprise";r=3;t=30' }, 200)).toBe(30_000);
    await gate.wait();
    expect(slept).toEqual([30_000]);
  });

  it('parses the headers it reads', () => {
    expect(parseRateLimit('"free";r=0;t=12')).toEqual({ remaining: 0, reset: 12 });
    expect(parseRateLimit('nonsense')).toBeNull();
    expect(parseRetryAfter('120', 0)).toBe(120);
    expect(parseRetryAfter(new Date(60_000).toUTCString(), 0)).toBe(60);
  });
});

describe('Range', () => {
  it('answers single byte ranges, suffixes, and what cannot be satisfied', () => {
    expect(parseRange('bytes=100-', 1000)).toEqual({ kind: 'partial', start: 100, end: 999 });
    expect(parseRange('bytes=0-9', 1000)).toEqual({ kind: 'partial', start: 0, end: 9 });
    expect(parseRange('bytes=-10', 1000)).toEqual({ kind: 'partial', start: 990, end: 999 });
    expect(parseRange('bytes=990-5000', 1000)).toEqual({ kind: 'partial', start: 990, end: 999 });
    expect(parseRange('bytes=1000-', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-1,5-6', 1000)).toEqual({ kind: 'whole' });
    expect(parseRange('items=1-2', 1000)).toEqual({ kind: 'whole' });
    expect(parseRange(undefined, 1000)).toEqual({ kind: 'whole' });
  });

  it('applies If-Range only to the same strong ETag', () => {
    expect(rangeStillValid('"abc"', '"abc"')).toBe(true);
    expect(rangeStillValid('"old"', '"abc"')).toBe(false);
    expect(rangeStillValid('W/"abc"', '"abc"')).toBe(false);
    expect(rangeStillValid('Sat, 01 Jan 2000 00:00:00 GMT', '"abc"')).toBe(false);
    expect(rangeStillValid(undefined, '"abc"')).toBe(true);
  });
});
