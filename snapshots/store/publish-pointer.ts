/**
 * `current.json` in a BlobStore: the pointer of a snapshot root on an object store (no symlinks
 * there). Overwritten by each publish and written last; a reader that finds no valid pointer sees
 * nothing published.
 *
 * @example
 *   await writeStoreCurrent(store, '20261122T020000Z-1a2b3c4d');
 *   await readStoreCurrent(store)   // '20261122T020000Z-1a2b3c4d'
 */
import { CatalogError } from '../errors.js';
import type { BlobStore } from './blob-store.js';
import { CURRENT_JSON, isSnapshotId } from './pointer.js';

/**
 * The snapshot id in the bytes of a `current.json`, or why there is none. Shared by every reader of
 * the pointer (publish, the bucket source, verify), which each word their own error.
 */
export function parseStoreCurrent(bytes: Buffer): { id: string } | { problem: 'not_json' | 'no_id'; value: unknown } {
  let id: unknown;
  try {
    id = (JSON.parse(bytes.toString('utf8')) as { snapshotId?: unknown })?.snapshotId;
  } catch {
    return { problem: 'not_json', value: undefined };
  }
  return typeof id === 'string' && isSnapshotId(id) ? { id } : { problem: 'no_id', value: id };
}

export async function readStoreCurrent(store: BlobStore): Promise<string | null> {
  const bytes = await store.get(CURRENT_JSON);
  if (bytes === null) return null;
  const parsed = parseStoreCurrent(bytes);
  if ('problem' in parsed) {
    throw new CatalogError('corrupt_object', `${store.location}: ${CURRENT_JSON} does not name a snapshot; publish a snapshot again to rewrite it`, { location: store.location });
  }
  return parsed.id;
}

export async function writeStoreCurrent(store: BlobStore, snapshotId: string): Promise<void> {
  if (!isSnapshotId(snapshotId)) throw new CatalogError('internal', `not a snapshot id: ${snapshotId}`);
  await store.put(CURRENT_JSON, Buffer.from(JSON.stringify({ snapshotId }) + '\n'), { contentType: 'application/json' });
}
