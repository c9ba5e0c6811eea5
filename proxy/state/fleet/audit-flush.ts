/**
 * Waits until every audit entry appended before the call is in PostgreSQL: the stream's last ID is
 * read, then the consumer group is watched until it has delivered that far and has nothing pending
 * at or below it (the drainers committed and acknowledged it). So a reader that flushes first sees
 * every request answered before it asked, whichever host answered (the admin audit route and
 * `catalog audit` do; a test waits for "one row per request" the same way).
 *
 * The drainers of the serving hosts do the moving; a process without a running drainer (the CLI)
 * passes its own, which is driven here one batch at a time. Bounded by `timeoutMs`: past it the
 * read goes ahead with what PostgreSQL has, rather than hanging behind a stuck drainer.
 *
 * @example
 *   await flushAudit(redis, { keys, timeoutMs: 2000 });   // true: caught up; false: timed out
 */
import type { Redis } from 'ioredis';
import { type AuditDrainer, lastDeliveredId } from './drainer.js';
import type { FleetKeys } from './keys.js';
import { orUnavailable } from './unavailable.js';

export interface FlushOptions {
  keys: FleetKeys;
  timeoutMs?: number;
  /** A drainer that is not looping (the CLI's): run here until caught up. */
  drainer?: AuditDrainer;
}

/** -1, 0, 1 as stream ID `a` is before, equal to, after `b` (`<ms>-<seq>`). */
export function compareStreamIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(BigInt);
  const [bm, bs] = b.split('-').map(BigInt);
  if (am !== bm) return am < bm ? -1 : 1;
  if (as !== bs) return as < bs ? -1 : 1;
  return 0;
}

export async function flushAudit(redis: Redis, options: FlushOptions): Promise<boolean> {
  const { keys } = options;
  const deadline = Date.now() + (options.timeoutMs ?? 2000);
  const last = await orUnavailable('Redis', () => redis.xrevrange(keys.stream, '+', '-', 'COUNT', 1));
  if (last.length === 0) return true;
  const target = last[0][0];
  for (;;) {
    if (options.drainer) await options.drainer.drainOnce();
    if (await caughtUp(redis, keys, target)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function caughtUp(redis: Redis, keys: FleetKeys, target: string): Promise<boolean> {
  const delivered = await orUnavailable('Redis', () => lastDeliveredId(redis, keys));
  if (delivered === null || compareStreamIds(delivered, target) < 0) return false;
  const summary = (await orUnavailable('Redis', () => redis.xpending(keys.stream, keys.group))) as [number, string | null, ...unknown[]];
  return summary[1] === null || compareStreamIds(summary[1], target) > 0;
}
