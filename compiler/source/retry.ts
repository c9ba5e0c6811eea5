/**
 * The retry policy of the HTTP source: which failures are worth another try and how long to wait.
 * Transient: connection errors, timeouts, a body cut short, and the statuses a healthy server
 * answers while overloaded or restarting (429, 502, 503, 504) or hitting a passing fault (500: a
 * static file server answers it for a read error, a file being replaced, a backend restarting
 * behind a proxy; retried a few times, a lasting 500 still fails the compile in seconds, with the
 * same exit code). A 404 or 400 will not change on retry, so it is never retried.
 *
 * @example
 *   backoffMs(2, 250, Math.random)             // between 500 and 1000
 *   retryAfterMs('3', Date.now(), 30_000)     // 3000
 */

export const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/** Longest wait a server's Retry-After may impose on a nightly compile, per attempt. */
export const MAX_RETRY_AFTER_MS = 30_000;
/** Longest computed backoff between two attempts. */
export const MAX_BACKOFF_MS = 10_000;

const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  // A gzip body cut short.
  'Z_BUF_ERROR',
  'Z_DATA_ERROR',
]);

/** undici codes that are a property of the request we built, not of the network: retrying cannot help. */
const PERMANENT_UNDICI_CODES = new Set(['UND_ERR_ABORTED', 'UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED', 'UND_ERR_DESTROYED', 'UND_ERR_CLOSED']);

/** Whether a thrown error (from undici or the body pipeline) is worth a retry. */
export function isTransientError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  if (code.startsWith('UND_ERR_')) return !PERMANENT_UNDICI_CODES.has(code);
  return TRANSIENT_CODES.has(code);
}

/**
 * Exponential backoff with "equal jitter" (half fixed, half random; AWS Architecture Blog,
 * "Exponential Backoff And Jitter"), so many compiles retrying the same export do not hit it in step.
 * `attempt` is 0 for the wait after the first failure.
 */
export function backoffMs(attempt: number, baseMs: number, random: () => number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Retry-After (delay-seconds or an HTTP-date, RFC 9110 §10.2.3) in ms, capped; null when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now: number, capMs: number): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return null;
  const trimmed = value.trim();
  let ms: number;
  if (/^\d+$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return null;
    ms = at - now;
  }
  return Math.min(capMs, Math.max(0, ms));
}
