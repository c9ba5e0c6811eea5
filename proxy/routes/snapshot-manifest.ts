/**
 * GET /v1/snapshot/manifest and GET /v1/snapshot/signature — the manifest (NDJSON, the exact bytes
 * that were signed) and its detached Ed25519 signature. `?snapshot=<id>` pins a kept snapshot.
 */
import type { Context } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import { MANIFEST_FILE, MANIFEST_SIGNATURE_FILE } from '../../snapshots/keys.js';
import type { ProxyEnv } from '../env.js';
import { respondFile } from '../snapshot-files/respond-file.js';
import type { SnapshotFiles } from '../snapshot-files/snapshot-files.js';
import { sha256Hex } from '../../snapshots/codec.js';

export const NDJSON_CONTENT_TYPE = 'application/x-ndjson; charset=utf-8';

export async function answerManifest(c: Context<ProxyEnv>, files: SnapshotFiles, snapshotId: string | undefined): Promise<Response> {
  const reader = await files.pin(c, snapshotId);
  const facts = await files.manifest(reader);
  const file = await reader.file(MANIFEST_FILE);
  if (file === null) throw new CatalogError('internal', 'a published snapshot has no manifest', { snapshotId: reader.id });
  return respondFile(c, file, { etag: `"${facts.sha256}"`, contentType: NDJSON_CONTENT_TYPE, filename: `manifest-${reader.id}.ndjson` });
}

export async function answerSignature(c: Context<ProxyEnv>, files: SnapshotFiles, snapshotId: string | undefined): Promise<Response> {
  const reader = await files.pin(c, snapshotId);
  const file = await reader.file(MANIFEST_SIGNATURE_FILE);
  if (file === null) throw new CatalogError('not_found', `snapshot ${reader.id} is not signed`);
  const bytes = await file.bytes();
  return respondFile(c, file, { etag: `"${sha256Hex(bytes)}"`, contentType: 'application/json; charset=utf-8' });
}
