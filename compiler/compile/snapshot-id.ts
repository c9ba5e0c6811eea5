/**
 * Snapshot ids sort by time (`20261122T020000Z-1a2b3c4d`), so "the newest N" is a plain sort and an
 * operator can read when a snapshot was made from its folder name.
 */
import { randomBytes } from 'node:crypto';

export function newSnapshotId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
  return `${stamp}-${randomBytes(4).toString('hex')}`;
}
