/**
 * How webhooks are delivered, read from the environment once at start (a bad value stops the server
 * naming the variable). Defaults: a new snapshot is noticed within 2 s; up to 4 requests at once per
 * process, each cut off after 10 s; a failed delivery is retried with exponential backoff and full
 * jitter (ceilings 30 s, 1 min, 2 min, … capped at 2 h) for at most 20 attempts or 24 h after the
 * publish, whichever comes first. Tests set milliseconds.
 *
 * @example
 *   loadWebhookSettings({ CATALOG_WEBHOOKS_RETRY_BASE_MS: '20' }).retry.baseMs   // 20
 */
import { CatalogError } from '../../snapshots/errors.js';

export interface RetrySchedule {
  /** Ceiling of the first retry's delay; each later ceiling doubles, up to `capMs`. */
  baseMs: number;
  capMs: number;
  /** Attempts in all, the first included; the delivery is `failed` after the last. */
  maxAttempts: number;
  /** No attempt starts later than this after the delivery was queued. */
  maxAgeMs: number;
}

export interface WebhookSettings {
  /** Plain http to 127.0.0.1, [::1] or localhost: for tests and local development only. */
  allowLoopbackHttp: boolean;
  /** How often the sender looks at the current snapshot and for due deliveries. */
  pollMs: number;
  /** One attempt's limit, connect to last byte of the answer's head. */
  timeoutMs: number;
  /** Requests in flight at once, per process. */
  concurrency: number;
  retry: RetrySchedule;
  /** Finished deliveries (delivered, failed, cancelled) older than this are deleted from the log. */
  logRetentionDays: number;
}

export const WEBHOOK_VARIABLES = [
  'CATALOG_WEBHOOKS_ALLOW_LOOPBACK_HTTP', 'CATALOG_WEBHOOKS_POLL_MS', 'CATALOG_WEBHOOKS_TIMEOUT_MS', 'CATALOG_WEBHOOKS_CONCURRENCY',
  'CATALOG_WEBHOOKS_RETRY_BASE_MS', 'CATALOG_WEBHOOKS_RETRY_CAP_MS', 'CATALOG_WEBHOOKS_MAX_ATTEMPTS', 'CATALOG_WEBHOOKS_MAX_AGE_MS',
  'CATALOG_WEBHOOKS_LOG_RETENTION_DAYS',
] as const;

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  allowLoopbackHttp: false,
  pollMs: 2000,
  timeoutMs: 10_000,
  concurrency: 4,
  retry: { baseMs: 30_000, capMs: 2 * 3600_000, maxAttempts: 20, maxAgeMs: 24 * 3600_000 },
  logRetentionDays: 30,
};

export function loadWebhookSettings(env: NodeJS.ProcessEnv): WebhookSettings {
  const d = DEFAULT_WEBHOOK_SETTINGS;
  const int = (name: (typeof WEBHOOK_VARIABLES)[number], fallback: number, min: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
      throw new CatalogError('config', `${name} must be an integer of at least ${min}`, { setting: name });
    }
    return Number(raw);
  };
  const loopback = env.CATALOG_WEBHOOKS_ALLOW_LOOPBACK_HTTP;
  if (loopback !== undefined && loopback !== '' && loopback !== '0' && loopback !== '1') {
    throw new CatalogError('config', 'CATALOG_WEBHOOKS_ALLOW_LOOPBACK_HTTP must be 1 or 0', { setting: 'CATALOG_WEBHOOKS_ALLOW_LOOPBACK_HTTP' });
  }
  return {
    allowLoopbackHttp: loopback === '1',
    pollMs: int('CATALOG_WEBHOOKS_POLL_MS', d.pollMs, 1),
    timeoutMs: int('CATALOG_WEBHOOKS_TIMEOUT_MS', d.timeoutMs, 1),
    concurrency: int('CATALOG_WEBHOOKS_CONCURRENCY', d.concurrency, 1),
    retry: {
      baseMs: int('CATALOG_WEBHOOKS_RETRY_BASE_MS', d.retry.baseMs, 1),
      capMs: int('CATALOG_WEBHOOKS_RETRY_CAP_MS', d.retry.capMs, 1),
      maxAttempts: int('CATALOG_WEBHOOKS_MAX_ATTEMPTS', d.retry.maxAttempts, 1),
      maxAgeMs: int('CATALOG_WEBHOOKS_MAX_AGE_MS', d.retry.maxAgeMs, 1),
    },
    logRetentionDays: int('CATALOG_WEBHOOKS_LOG_RETENTION_DAYS', d.logRetentionDays, 1),
  };
}

/**
 * When the next attempt starts after `attempts` failed ones, or null to give up. Full jitter
 * (a uniform delay between 0 and the ceiling): receivers that all failed together, after an outage,
 * do not all come back at the same instant.
 */
export function nextAttemptAt(retry: RetrySchedule, attempts: number, queuedMs: number, nowMs: number, random: () => number = Math.random): number | null {
  if (attempts >= retry.maxAttempts) return null;
  const ceiling = Math.min(retry.capMs, retry.baseMs * 2 ** Math.min(attempts - 1, 40));
  const at = nowMs + Math.floor(random() * ceiling);
  return at > queuedMs + retry.maxAgeMs ? null : at;
}
