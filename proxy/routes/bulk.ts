/**
 * GET /v1/bulk — the bulk files of the snapshot (name, count, size, SHA-256);
 * GET /v1/bulk/:name — one of them, streamed with `Content-Length`, resumable with `Range`
 * (`If-Range: <ETag>` makes sure the rest comes from the same file). `?snapshot=<id>` pins a kept snapshot.
 */
import type { Context } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import { envelope } from '../../snapshots/envelope.js';
import type { ProxyEnv } from '../env.js';
import { respondFile } from '../snapshot-files/respond-file.js';
import { respondJson } from '../snapshot-files/respond-json.js';
import type { SnapshotFiles } from '../snapshot-files/snapshot-files.js';

export const BULK_CONTENT_TYPE = 'application/gzip';

export async function answerBulkList(c: Context<ProxyEnv>, files: SnapshotFiles, snapshotId: string | undefined): Promise<Response> {
  const reader = await files.pin(c, snapshotId);
  const { header } = await files.manifest(reader);
  return respondJson(c, envelope('bulkFiles', header.asOf, {
    snapshotId: reader.id,
    files: (header.bulk ?? []).map((b) => ({
      name: b.name, url: `/v1/bulk/${b.name}`, contentType: BULK_CONTENT_TYPE, count: b.count, size: b.size, sha256: b.sha256,
    })),
  }));
}

export async function answerBulkFile(c: Context<ProxyEnv>, files: SnapshotFiles, name: string, snapshotId: string | undefined): Promise<Response> {
  const reader = await files.pin(c, snapshotId);
  const { header } = await files.manifest(reader);
  const entry = (header.bulk ?? []).find((b) => b.name === name);
  if (!entry) throw new CatalogError('not_found', `snapshot ${reader.id} has no bulk file named ${name} (GET /v1/bulk lists them)`);
  const file = await reader.file(entry.file);
  if (file === null) throw new CatalogError('internal', 'a bulk file listed in the manifest is missing', { file: entry.file });
  return respondFile(c, file, { etag: `"${entry.sha256}"`, contentType: BULK_CONTENT_TYPE, filename: `${name}-${reader.id}.ndjson.gz` });
}
