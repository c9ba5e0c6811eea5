/**
 * Deterministic encoding: stable key order (fast-json-stable-stringify) and gzip with fixed settings.
 * Node's gzip writes mtime 0 and a fixed OS byte, so the same JSON gives the same bytes and hash.
 *
 * @example
 *   const bytes = encodeDocument(envelope('card', '2026-11-20', data));
 *   decodeDocument(bytes)  // the envelope again
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync, constants } from 'node:zlib';
import stringify from 'fast-json-stable-stringify';

export const GZIP_LEVEL = 6;

export function stableJson(value: unknown): string {
  return stringify(value);
}

export function gzip(raw: Buffer | string): Buffer {
  return gzipSync(raw, { level: GZIP_LEVEL, strategy: constants.Z_DEFAULT_STRATEGY });
}

export function gunzip(compressed: Buffer): Buffer {
  return gunzipSync(compressed);
}

export function encodeDocument(doc: unknown): Buffer {
  return gzip(stableJson(doc));
}

export function decodeDocument<T = unknown>(compressed: Buffer): T {
  return JSON.parse(gunzip(compressed).toString('utf8')) as T;
}

export function sha256Hex(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A short fingerprint for change detection (not a security boundary). */
export function fingerprint(...parts: (string | Buffer)[]): string {
  const h = createHash('sha1');
  for (const p of parts) h.update(p).update('\u0000');
  return h.digest('base64url');
}
