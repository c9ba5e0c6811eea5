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

/** API.md §7 (fixed): shared caches may keep a read for 5 minutes and serve it stale for an hour while revalidating. */
export const READ_CACHE_CONTROL = 'public, s-maxage=300, stale-while-revalidate=3600';
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function respondObject(
  c: Context<ProxyEnv>,
  loader: ObjectLoader,
  obj: ServedObject,
  extra: { link?: string | null } = {},
): Response {
  const gzip = acceptsGzip(c.req.header('accept-encoding'));
  const etag = etagFor(obj.sha256, gzip);
  c.header('ETag', etag);
  c.header('Cache-Control', READ_CACHE_CONTROL);
  c.header('Vary', 'Accept-Encoding');
  const snapshotId = c.get('snapshotId');
  if (snapshotId) c.header('X-Snapshot-Id', snapshotId);
  if (extra.link) c.header('Link', extra.link);

  // Also on 304: @hono/node-server fills a missing Content-Type with text/plain, which would
  // mislabel the representation a cache revalidated.
  c.header('Content-Type', JSON_CONTENT_TYPE);
  if (ifNoneMatchHits(c.req.header('if-none-match'), etag)) return c.body(null, 304);

  const head = c.req.method === 'HEAD';
  if (gzip) {
    c.header('Content-Encoding', 'gzip');
    c.header('Content-Length', String(obj.gzip.length));
    return head ? c.body(null, 200) : c.body(asBody(obj.gzip), 200);
  }
  const small = loader.smallIdentity(obj);
  if (small) {
    c.header('Content-Length', String(small.length));
    return head ? c.body(null, 200) : c.body(asBody(small), 200);
  }
  // Large object, identity wanted: decode as it is sent, so memory stays flat; length is unknown up front.
  if (head) return c.body(null, 200);
  const gunzip = createGunzip();
  gunzip.end(obj.gzip);
  return c.body(Readable.toWeb(gunzip) as unknown as ReadableStream, 200);
}

/** Node Buffers are Uint8Arrays over an ArrayBufferLike; Hono's body type wants a plain ArrayBuffer view. */
function asBody(bytes: Buffer): Uint8Array<ArrayBuffer> {
  return bytes as Uint8Array<ArrayBuffer>;
}
