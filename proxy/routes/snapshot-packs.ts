/**
 * GET /v1/snapshot/packs/<sha256> and GET /v1/snapshot/files/<name> — what a mirror of a packed
 * snapshot (manifest version 2, issue 17) downloads besides the manifest and the bulk files: the
 * pack files its object index points into, and the snapshot's own files (object index, search
 * index, change list). Only what the pinned snapshot's signed manifest lists is served, so these
 * routes never become a way to read other files of the root; everything else is 404. Both answer
 * like the bulk files (respond-file.ts): ETag = the SHA-256 the manifest lists, `Range`/`If-Range`
 * so a broken download of a pack of hundreds of MB resumes where it stopped.
 *
 * @example
 *   GET /v1/snapshot/packs/9f…?snapshot=20261122T020000Z-1a2b3c4d   → the pack, application/octet-stream
 *   GET /v1/snapshot/files/objects.sqlite?snapshot=…                  → the object index (application/octet-stream)
 */
import type { Context } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import { isPackedHeader } from '../../snapshots/manifest.js';
import type { ProxyEnv } from '../env.js';
import { respondFile } from '../snapshot-files/respond-file.js';
import type { SnapshotFiles } from '../snapshot-files/snapshot-files.js';

/**
 * Packs and snapshot files alike: they are copied byte for byte into a mirror, never shown, so one
 * media type documents them all (SQLite and NDJSON files included).
 */
export const PACK_CONTENT_TYPE = 'application/octet-stream';

/** The pinned snapshot's manifest header, when it is packed; a per-URL snapshot has no packs or files to list. */
async function packedHeader(c: Context<ProxyEnv>, files: SnapshotFiles, snapshotId: string | undefined, what: string) {
  const reader = await files.pin(c, snapshotId);
  const { header } = await files.manifest(reader);
  if (!isPackedHeader(header)) {
    throw new CatalogError('not_found', `snapshot ${reader.id} is not packed (manifest version ${header.version}): it has no ${what}; mirror it by object (GET /v1/snapshot/objects/<key>)`);
  }
  return { reader, header };
}

export async function answerPack(c: Context<ProxyEnv>, files: SnapshotFiles, sha256: string, snapshotId: string | undefined): Promise<Response> {
  const { reader, header } = await packedHeader(c, files, snapshotId, 'packs');
  const listed = (header.packs ?? []).find((p) => p.sha256 === sha256);
  if (!listed) throw new CatalogError('not_found', `snapshot ${reader.id} lists no pack ${sha256} (its manifest's "packs" names them)`);
  const file = (await reader.pack?.(sha256)) ?? null;
  if (file === null) throw new CatalogError('internal', 'a pack listed in the manifest is missing from the store', { pack: sha256, snapshotId: reader.id });
  return respondFile(c, file, { etag: `"${sha256}"`, contentType: PACK_CONTENT_TYPE });
}

export async function answerSnapshotFile(c: Context<ProxyEnv>, files: SnapshotFiles, name: string, snapshotId: string | undefined): Promise<Response> {
  const { reader, header } = await packedHeader(c, files, snapshotId, 'files');
  const listed = (header.files ?? []).find((f) => f.name === name);
  if (!listed) throw new CatalogError('not_found', `snapshot ${reader.id} lists no file ${name} (its manifest's "files" names them)`);
  const file = await reader.file(listed.name);
  if (file === null) throw new CatalogError('internal', 'a file listed in the manifest is missing from the store', { file: name, snapshotId: reader.id });
  return respondFile(c, file, { etag: `"${listed.sha256}"`, contentType: PACK_CONTENT_TYPE, filename: `${reader.id}-${name}` });
}
