/**
 * Writes the manifest and, with a signing key, its detached signature. The manifest is written under
 * a temporary name while its bytes are hashed, the signature is written next, and only then is the
 * manifest renamed into place: its presence still marks a complete folder (publish.ts), and a
 * complete folder of a signed compile always has its signature.
 */
import { createHash, type KeyObject } from 'node:crypto';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { MANIFEST_FILE, MANIFEST_SIGNATURE_FILE } from '../../snapshots/keys.js';
import { signManifest } from '../../snapshots/signature.js';
import type { SnapshotWriter } from '../../snapshots/store/types.js';

export async function writeManifestFile(writer: SnapshotWriter, lines: Iterable<string>, signKey: KeyObject | null): Promise<void> {
  const tmp = `${MANIFEST_FILE}.tmp`;
  const hash = createHash('sha256');
  let size = 0;
  await writer.writeFile(tmp, (function* () {
    for (const line of lines) {
      hash.update(line);
      size += Buffer.byteLength(line);
      yield line;
    }
  })());
  if (signKey) {
    const signature = signManifest(signKey, { snapshotId: writer.id, sha256: hash.digest('hex'), size });
    await writer.writeFile(MANIFEST_SIGNATURE_FILE, JSON.stringify(signature) + '\n');
  }
  await rename(join(writer.dir, tmp), join(writer.dir, MANIFEST_FILE));
}
