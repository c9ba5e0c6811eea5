/**
 * A small body built per request (snapshot metadata, the bulk list, the public key): strong ETag of
 * the bytes sent, gzip when accepted and large enough, `If-None-Match` → 304 (respond-negotiated.ts),
 * revalidated by caches on every use (SNAPSHOT_CACHE_CONTROL).
 */
import type { Context } from 'hono';
import type { ProxyEnv } from '../env.js';
import { respondNegotiated } from '../http/respond-negotiated.js';
import { JSON_CONTENT_TYPE } from '../serve-object/respond-object.js';
import { SNAPSHOT_CACHE_CONTROL } from './respond-file.js';

export function respondBody(c: Context<ProxyEnv>, body: string, contentType: string, extra: Record<string, string> = {}): Promise<Response> {
  const headers: Record<string, string> = { 'Cache-Control': SNAPSHOT_CACHE_CONTROL, 'Content-Type': contentType, ...extra };
  const snapshotId = c.get('snapshotId');
  if (snapshotId) headers['X-Snapshot-Id'] = snapshotId;
  return respondNegotiated(c, body, 200, headers, { etag: true });
}

export function respondJson(c: Context<ProxyEnv>, value: unknown, extra: Record<string, string> = {}): Promise<Response> {
  return respondBody(c, JSON.stringify(value), JSON_CONTENT_TYPE, extra);
}
