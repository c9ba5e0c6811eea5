/**
 * A small body built per request (snapshot metadata, the bulk list, the public key): strong ETag from
 * the body's SHA-256, `If-None-Match` → 304, revalidated by caches on every use (SNAPSHOT_CACHE_CONTROL).
 */
import type { Context } from 'hono';
import { sha256Hex } from '../../snapshots/codec.js';
import type { ProxyEnv } from '../env.js';
import { respond } from '../http/response-headers.js';
import { ifNoneMatchHits } from '../serve-object/etag.js';
import { JSON_CONTENT_TYPE } from '../serve-object/respond-object.js';
import { SNAPSHOT_CACHE_CONTROL } from './respond-file.js';

export function respondBody(c: Context<ProxyEnv>, body: string, contentType: string, extra: Record<string, string> = {}): Response {
  const etag = `"${sha256Hex(body)}"`;
  const headers: Record<string, string> = { ETag: etag, 'Cache-Control': SNAPSHOT_CACHE_CONTROL, 'Content-Type': contentType, ...extra };
  const snapshotId = c.get('snapshotId');
  if (snapshotId) headers['X-Snapshot-Id'] = snapshotId;
  if (ifNoneMatchHits(c.req.header('if-none-match'), etag)) return respond(c, null, 304, headers, null);
  const length = Buffer.byteLength(body);
  headers['Content-Length'] = String(length);
  return respond(c, c.req.method === 'HEAD' ? null : body, 200, headers, length);
}

export function respondJson(c: Context<ProxyEnv>, value: unknown): Response {
  return respondBody(c, JSON.stringify(value), JSON_CONTENT_TYPE);
}
