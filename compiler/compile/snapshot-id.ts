/**
 * Snapshot ids sort by time (`20261122T020000Z-1a2b3c4d`), so "the newest N" is a plain sort and an
 * operator can read when a snapshot was made from its folder name.
 *
 * The time is to the second, and two compiles of a small catalog can finish within one second (or
 * the clock can step back): a new id is therefore always made later than the newest one already in
 * the root, one second past it if need be. Otherwise the random suffix would decide the order of
 * same-second snapshots, and a prune could keep the older one and delete the newer.
 *
 * @example
 *   newSnapshotId(new Date('2026-11-22T02:00:00.400Z'))                               // '20261122T020000Z-1a2b3c4d'
 *   newSnapshotId(new Date('2026-11-22T02:00:00.900Z'), '20261122T020000Z-1a2b3c4d')  // '20261122T020001Z-…'
 */
import { randomBytes } from 'node:crypto';

const STAMP = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z-/;

export function newSnapshotId(now: Date, newestExisting: string | null = null): string {
  let ms = Math.floor(now.getTime() / 1000) * 1000;
  const m = newestExisting === null ? null : STAMP.exec(newestExisting);
  if (m !== null) {
    const previous = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
    if (ms <= previous) ms = previous + 1000;
  }
  const stamp = new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
  return `${stamp}-${randomBytes(4).toString('hex')}`;
}
