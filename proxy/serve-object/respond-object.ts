/**
 * Writes one stored (or server-built) object as the response, with the caching rules of API.md §2
 * and §7: gzip bytes pass through untouched when the client accepts gzip, otherwise they are decoded
 * (in one call for small objects, streamed through zlib for large ones); strong ETag per coding;
 * If-None-Match → 304; HEAD gets the headers without a body.
 */
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { Context } from 'hono';
import type { ProxyEnv } from '../env.js';
import { acceptsGzip } from './accept-encoding.js';
import { etagFor, ifNoneMatchHits } from './etag.js';
import type { ObjectLoader, ServedObject } from './object-loader.js';
import { respond } from '../http/response-headers.js';

/** API.md §7 (fixed): shared caches may keep a read for 5 minutes and serve it stale for an hour while revalidating. */
export const READ_CACHE_CONTROL = 'public, s-maxage=300, stale-while-revalidate=3600';
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function respondObject(
  c: Context<ProxyEnv>,
  loader: ObjectLoader,
  obj: ServedObject,
  extra: { link?: string | null; contentType?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const gzip = acceptsGzip(c.req.header('accept-encoding'));
  const etag = etagFor(obj.sha256, gzip);
  // One plain object for the adapter's fast path (http/response-headers.ts). Content-Type also on
  // 304: @hono/node-server fills a missing one with text/plain, which would mislabel the
  // representation a cache revalidated.
  const headers: Record<string, string> = {
    ETag: etag,
    'Cache-Control': READ_CACHE_CONTROL,
    Vary: 'Accept-Encoding',
    'Content-Type': extra.contentType ?? JSON_CONTENT_TYPE,
  };
  const snapshotId = c.get('snapshotId');
  if (snapshotId) headers['X-Snapshot-Id'] = snapshotId;
  if (extra.link) headers.Link = extra.link;

  if (ifNoneMatchHits(c.req.header('if-none-match'), etag)) return respond(c, null, 304, headers, null);
  // The answer's own headers (the reference page's CSP) go with its body; a 304 keeps the cached ones.
  Object.assign(headers, extra.headers);

  const head = c.req.method === 'HEAD';
  if (gzip) {
    headers['Content-Encoding'] = 'gzip';
    headers['Content-Length'] = String(obj.gzip.length);
    return respond(c, head ? null : obj.gzip, 200, headers, obj.gzip.length);
  }
  const small = loader.smallIdentity(obj);
  if (small) {
    headers['Content-Length'] = String(small.length);
    return respond(c, head ? null : small, 200, headers, small.length);
  }
  // Large object, identity wanted: decode as it is sent, so memory stays flat; length is unknown up front.
  if (head) return respond(c, null, 200, headers, null);
  const gunzip = createGunzip();
  gunzip.end(obj.gzip);
  return respond(c, Readable.toWeb(gunzip) as unknown as ReadableStream, 200, headers, null);
}
