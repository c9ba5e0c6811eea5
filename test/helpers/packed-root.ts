/**
 * Helpers for tests on packed snapshot roots (issue 17): reading a snapshot's manifest header,
 * writing it again after a test changed a file on purpose (the files re-listed with their sizes and
 * hashes as they are now, and re-signed), so only a deeper check can catch the change; and copying a
 * folder root into an S3 store.
 */
import type { KeyObject } from 'node:crypto';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE, MANIFEST_SIGNATURE_FILE } from '../../snapshots/keys.js';
import type { ManifestHeader } from '../../snapshots/manifest.js';
import { signManifest } from '../../snapshots/signature.js';
import type { BlobStore } from '../../snapshots/store/blob-store.js';
import { createFolderBlobStore } from '../../snapshots/store/blob-fs.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export function readPackedHeader(root: string, id: string): ManifestHeader {
  return JSON.parse(readFileSync(join(root, id, MANIFEST_FILE), 'utf8')) as ManifestHeader;
}

/** Writes `header` as the snapshot's manifest, with the files' sizes and hashes as they are now, signed with `signKey`. */
export function rewritePackedManifest(root: string, id: string, header: ManifestHeader = readPackedHeader(root, id), signKey?: KeyObject): void {
  const listed = (name: string) => {
    const bytes = readFileSync(join(root, id, name));
    return { name, size: bytes.length, sha256: sha256(bytes) };
  };
  const files = (header.files ?? []).map((f) => listed(f.name));
  const bulk = (header.bulk ?? []).map((b) => {
    const now = listed(b.file);
    return { ...b, size: now.size, sha256: now.sha256 };
  });
  const text = JSON.stringify({ ...header, files, bulk }) + '\n';
  writeFileSync(join(root, id, MANIFEST_FILE), text);
  if (signKey) {
    const sig = signManifest(signKey, { snapshotId: id, sha256: sha256(Buffer.from(text)), size: Buffer.byteLength(text) });
    writeFileSync(join(root, id, MANIFEST_SIGNATURE_FILE), JSON.stringify(sig) + '\n');
  }
}

/** Copies every object of a folder root (packs, snapshot folders, current.json) into `store`. */
export async function uploadRoot(root: string, store: BlobStore): Promise<void> {
  const local = createFolderBlobStore(root);
  for await (const { key } of local.list('')) await store.put(key, readFileSync(join(root, key)));
}
