/**
 * The `current` pointer of a snapshot root. It is a relative symlink (`current -> <snapshotId>`) so
 * nginx or any static server follows it, plus `current.json` for HTTP readers that cannot see links.
 * Both are replaced by rename(2), which is atomic: a reader sees the old or the new snapshot, never
 * a mix, and a crash mid-compile leaves the last good one in place.
 *
 * @example
 *   await switchCurrent('/data/snapshots', '20261122T020000Z-1a2b3c4d');
 *   await readCurrentId('/data/snapshots')  // '20261122T020000Z-1a2b3c4d'
 */
import { readlink, rename, symlink, writeFile, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { CURRENT_POINTER } from '../keys.js';

export const CURRENT_JSON = 'current.json';
const SNAPSHOT_ID = /^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}(-[0-9]+)?$/;

export function isSnapshotId(name: string): boolean {
  return SNAPSHOT_ID.test(name);
}

export async function readCurrentId(root: string): Promise<string | null> {
  try {
    const target = await readlink(join(root, CURRENT_POINTER));
    return isSnapshotId(target) ? target : null;
  } catch (err) {
    // No pointer, or a root that is not a folder at all: nothing is published there.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
}

export async function switchCurrent(root: string, snapshotId: string): Promise<void> {
  if (!isSnapshotId(snapshotId)) throw new Error(`not a snapshot id: ${snapshotId}`);
  const tmpLink = join(root, `.${CURRENT_POINTER}.${process.pid}.tmp`);
  await unlink(tmpLink).catch(() => undefined);
  await symlink(snapshotId, tmpLink);
  await rename(tmpLink, join(root, CURRENT_POINTER));
  const tmpJson = join(root, `.${CURRENT_JSON}.${process.pid}.tmp`);
  await writeFile(tmpJson, JSON.stringify({ snapshotId }) + '\n');
  await rename(tmpJson, join(root, CURRENT_JSON));
}

/** Reads `current.json` (HTTP-friendly form of the pointer). */
export async function readCurrentJson(root: string): Promise<string | null> {
  try {
    const parsed = JSON.parse(await readFile(join(root, CURRENT_JSON), 'utf8')) as { snapshotId?: unknown };
    return typeof parsed.snapshotId === 'string' && isSnapshotId(parsed.snapshotId) ? parsed.snapshotId : null;
  } catch {
    return null;
  }
}
