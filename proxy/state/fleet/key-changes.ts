/**
 * Revocation broadcast: Redis pub/sub on one channel whose messages are key IDs. A host that
 * changed a key (revoke, rotate; also the CLI) publishes after its commit; every host's subscriber
 * drops that key from its cache. Measured here: a message reaches the other processes in about a
 * millisecond (docs/benchmarks.md), far inside the one-second promise; a version key polled every
 * N ms would cost a command per host per N ms and take N/2 on average.
 *
 * Pub/sub delivers at most once: messages published while a subscriber is disconnected are lost.
 * So each (re)subscription first tells `onResync`, which clears the whole cache.
 *
 * @example
 *   const listener = await listenKeyChanges(subscriberRedis, { onChange: (id) => cache.invalidate(id), onResync: () => cache.clear() });
 *   await publishKeyChange(redis, keyId);
 *   await listener.close();
 */
import type { Redis } from 'ioredis';
import { type FleetKeys, fleetKeys } from './keys.js';
import { orUnavailable } from './unavailable.js';

export async function publishKeyChange(redis: Redis, keyId: string, keys: FleetKeys = fleetKeys()): Promise<void> {
  await orUnavailable('Redis', () => redis.publish(keys.keyChanges, keyId));
}

export interface KeyChangeListener {
  close(): Promise<void>;
}

export async function listenKeyChanges(
  /** A client of its own: a subscribed connection can run no other command. */
  subscriber: Redis,
  options: { onChange: (keyId: string) => void; onResync: () => void; keys?: FleetKeys },
): Promise<KeyChangeListener> {
  const channel = (options.keys ?? fleetKeys()).keyChanges;
  subscriber.on('message', (from: string, keyId: string) => {
    if (from === channel) options.onChange(keyId);
  });
  // ioredis re-subscribes by itself after a reconnect ('ready' again); whatever was published in
  // between is lost, so the cache starts over.
  subscriber.on('ready', () => options.onResync());
  await orUnavailable('Redis', () => subscriber.subscribe(channel));
  options.onResync();
  return {
    async close() {
      await subscriber.unsubscribe(channel).catch(() => undefined);
      subscriber.disconnect();
    },
  };
}
