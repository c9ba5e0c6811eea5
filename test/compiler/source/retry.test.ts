import { describe, expect, it } from 'vitest';
import { backoffMs, isTransientError, MAX_BACKOFF_MS, retryAfterMs } from '../../../compiler/source/retry.js';

describe('retry policy', () => {
  it('backoff doubles per attempt, with jitter in the upper half, and is capped', () => {
    expect(backoffMs(0, 100, () => 0)).toBe(50);
    expect(backoffMs(0, 100, () => 1)).toBe(100);
    expect(backoffMs(3, 100, () => 0)).toBe(400);
    expect(backoffMs(3, 100, () => 0.999)).toBeLessThanOrEqual(800);
    expect(backoffMs(30, 100, () => 1)).toBe(MAX_BACKOFF_MS);
  });

  it('Retry-After is read as seconds or an HTTP date, capped, and ignored when unreadable', () => {
    const now = Date.parse('2026-11-20T00:00:00Z');
    expect(retryAfterMs('2', now, 30_000)).toBe(2_000);
    expect(retryAfterMs('3600', now, 30_000)).toBe(30_000);
    expect(retryAfterMs('Fri, 20 Nov 2026 00:00:05 GMT', now, 30_000)).toBe(5_000);
    expect(retryAfterMs('Thu, 19 Nov 2026 00:00:00 GMT', now, 30_000)).toBe(0);
    expect(retryAfterMs('soon', now, 30_000)).toBeNull();
    expect(retryAfterMs(undefined, now, 30_000)).toBeNull();
  });

  it('network errors and undici timeouts are transient; aborts and plain errors are not', () => {
    const coded = (code: string) => Object.assign(new Error(code), { code });
    expect(isTransientError(coded('ECONNRESET'))).toBe(true);
    expect(isTransientError(coded('UND_ERR_HEADERS_TIMEOUT'))).toBe(true);
    expect(isTransientError(coded('UND_ERR_SOCKET'))).toBe(true);
    expect(isTransientError(coded('UND_ERR_ABORTED'))).toBe(false);
    expect(isTransientError(coded('ENOSPC'))).toBe(false);
    expect(isTransientError(new Error('boom'))).toBe(false);
  });
});
