/**
 * GET /v1/snapshot/objects/<key> — one stored object exactly as the manifest lists it (the gzip
 * bytes, `Content-Type: application/gzip`, ETag = its SHA-256), for mirrors: they fetch by manifest
 * key and check the hash, with no URL-to-key mapping to get wrong. `?snapshot=<id>` pins a kept
 * snapshot so a sync reads one snapshot throughout. The key is checked segment by segment before it
 * touches the store (route-table/params.ts `ObjectKey`, which also says how it is decoded).
 */
import type { Context } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import type { ProxyEnv } from '../env.js';
import { respond } from '../http/response-headers.js';
import { ifNoneMatchHits } from '../serve-object/etag.js';
import type { ObjectServer } from '../serve-object/object-server.js';
import { READ_CACHE_CONTROL } from '../serve-object/respond-object.js';
import type { SnapshotFiles } from '../snapshot-files/snapshot-files.js';

export async function answerObject(c: Context<ProxyEnv>, serve: ObjectServer, files: SnapshotFiles, key: string, snapshotId: string | undefined): Promise<Response> {
  const reader = await files.pin(c, snapshotId);
  const obj = await serve.loader.load(reader, key);
  if (obj === null) throw new CatalogError('not_found', `snapshot ${reader.id} has no object ${key}`);
  const etag = `"${obj.sha256}"`;
  const headers: Record<string, string> = {
    ETag: etag, 'Cache-Control': READ_CACHE_CONTROL, 'Content-Type': 'application/gzip', 'X-Snapshot-Id': reader.id,
  };
  if (ifNoneMatchHits(c.req.header('if-none-match'), etag)) return respond(c, null, 304, headers, null);
  headers['Content-Length'] = String(obj.gzip.length);
  return respond(c, c.req.method === 'HEAD' ? null : obj.gzip, 200, headers, obj.gzip.length);
}
