/**
 * Opens the fleet's Redis client (ioredis) so that a failure is reported, never hidden:
 * - no offline queue and no retries per request: a command issued while Redis is down fails at once
 *   (the caller answers 503) instead of waiting in a queue and running later, unaccounted;
 * - no re-sending of unanswered commands after a reconnect: a limiter script that ran but whose
 *   reply was lost must not run twice (it would count twice and append a second audit entry);
 * - the client reconnects by itself, forever (every 50..500 ms), so the host recovers without a
 *   restart when Redis is back.
 *
 * @example
 *   const redis = await openRedis(process.env.CATALOG_REDIS_URL!);
 *   await redis.ping();
 *   redis.disconnect();
 */
import { Redis } from 'ioredis';
import { CatalogError } from '../../../snapshots/errors.js';
import { fleetUnavailable } from './unavailable.js';

export type { Redis } from 'ioredis';

export interface OpenRedisOptions {
  /** How long a command may wait for its reply before it fails (ms). */
  commandTimeoutMs?: number;
  /** How long openRedis waits for the first connection before it fails `unavailable` (ms). */
  connectTimeoutMs?: number;
  /** Told about connection errors (ioredis emits them on every failed reconnect). */
  onError?: (err: Error) => void;
}

export async function openRedis(url: string, options: OpenRedisOptions = {}): Promise<Redis> {
  if (!/^rediss?:\/\//.test(url)) throw new CatalogError('config', `a Redis URL starts with redis:// or rediss://, not ${JSON.stringify(url.slice(0, 12))}`);
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: options.commandTimeoutMs ?? 2000,
    connectTimeout: options.connectTimeoutMs ?? 2000,
    retryStrategy: (times) => Math.min(50 * times, 500),
  });
  // Without a listener an 'error' event would crash the process; the client retries by itself.
  redis.on('error', (err: Error) => options.onError?.(err));
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    throw fleetUnavailable('Redis', err);
  }
  return redis;
}
