/**
 * `catalog verify`: re-hash every object and bulk file of the current snapshot against its manifest
 * (and, given a public key, check the manifest's signature first). The folder check itself is shared
 * with the mirror: snapshots/store/verify-folder.ts.
 */
import type { KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { readCurrentId } from '../../snapshots/store/pointer.js';
import { verifySnapshotFolder, type FolderVerifyResult } from '../../snapshots/store/verify-folder.js';
import { CatalogError } from '../../snapshots/errors.js';

export type VerifyResult = FolderVerifyResult;

export async function verifySnapshot(
  root: string,
  onProgress?: (checked: number, total: number) => void,
  publicKey?: KeyObject,
): Promise<VerifyResult> {
  const id = await readCurrentId(root);
  if (id === null) throw new CatalogError('not_found', `no snapshot is published under ${root} (no current pointer); run catalog compile first`);
  return verifySnapshotFolder(join(root, id), { publicKey, onProgress });
}
