/** The Redis key names of one deployment; `prefix` lets tests (or two deployments) share a server. */
export interface FleetKeys {
  /** The audit stream every host appends to and the drainers read. */
  stream: string;
  /** The drainers' consumer group on it. */
  group: string;
  /** The counter of a key's window (seconds since the epoch). */
  counter(keyId: string, windowStart: number): string;
  /** The pub/sub channel of key changes (revoke, rotate). */
  keyChanges: string;
}

export const DEFAULT_PREFIX = 'catalog:';

export function fleetKeys(prefix = DEFAULT_PREFIX): FleetKeys {
  return {
    stream: `${prefix}audit`,
    group: 'drainers',
    counter: (keyId, windowStart) => `${prefix}rate:${keyId}:${windowStart}`,
    keyChanges: `${prefix}key-changes`,
  };
}
