/**
 * Sends one snapshot file (manifest, signature, bulk file) as a download: strong ETag (the file's
 * SHA-256), `If-None-Match` → 304, `Range`/`If-Range` → 206 or 416 so a broken download resumes,
 * `Content-Length` always, streamed from disk so memory stays flat whatever the file size.
 */
import { Readable } from 'node:stream';
import type { Context } from 'hono';
import { CatalogError } from '../../snapshots/errors.js';
import type { SnapshotFile } from '../../snapshots/store/types.js';
import type { ProxyEnv } from '../env.js';
import { respond } from '../http/response-headers.js';
import { parseRange, rangeStillValid } from '../http/range.js';
import { ifNoneMatchHits } from '../serve-object/etag.js';

/** Snapshot metadata changes at every publish: caches may keep it but must revalidate (ETag → 304). */
export const SNAPSHOT_CACHE_CONTROL = 'public, no-cache';

export interface FileResponse {
  etag: string;
  contentType: string;
  /** `Content-Disposition` file name, for files meant to be saved. */
  filename?: string;
}

export function respondFile(c: Context<ProxyEnv>, file: SnapshotFile, r: FileResponse): Promise<Response> {
  const headers: Record<string, string> = {
    ETag: r.etag,
    'Cache-Control': SNAPSHOT_CACHE_CONTROL,
    'Content-Type': r.contentType,
    'Accept-Ranges': 'bytes',
  };
  if (r.filename) headers['Content-Disposition'] = `attachment; filename="${r.filename}"`;
  const snapshotId = c.get('snapshotId');
  if (snapshotId) headers['X-Snapshot-Id'] = snapshotId;
  if (ifNoneMatchHits(c.req.header('if-none-match'), r.etag)) return respond(c, null, 304, headers, null);

  let start = 0;
  let end = file.size - 1;
  let status = 200;
  if (rangeStillValid(c.req.header('if-range'), r.etag)) {
    const range = parseRange(c.req.header('range'), file.size);
    if (range.kind === 'unsatisfiable') {
      throw new CatalogError('range_not_satisfiable', `the range is outside the file (${file.size} bytes)`, { contentRange: `bytes */${file.size}` });
    }
    if (range.kind === 'partial') {
      ({ start, end } = range);
      status = 206;
      headers['Content-Range'] = `bytes ${start}-${end}/${file.size}`;
    }
  }
  const length = file.size === 0 ? 0 : end - start + 1;
  headers['Content-Length'] = String(length);
  if (c.req.method === 'HEAD' || length === 0) return respond(c, null, status, headers, length);
  const body = Readable.toWeb(file.stream(start, end) as Readable) as unknown as ReadableStream;
  return respond(c, body, status, headers, length);
}
