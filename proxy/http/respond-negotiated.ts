/**
 * The one place where a body the proxy builds per request (search, audit, key administration,
 * snapshot metadata, error bodies) picks its content coding: gzip when Accept-Encoding accepts it
 * (serve-object/accept-encoding.ts: q-values, `*`, `gzip;q=0`, no header = identity), identity
 * otherwise; an error body is compressed only from ERROR_GZIP_MIN_BYTES. `Vary: Accept-Encoding` is on every such answer,
 * compressed or not: a cache must not hand a gzip body to a client that did not ask for one.
 *
 * With `etag`, the strong ETag is the SHA-256 of the bytes sent, so each coding has its own tag
 * (RFC 9110 §8.8.3) and a gzip ETag is, as for stored objects, the hash of the gzip bytes;
 * If-None-Match then gives 304. HEAD gets the headers of GET without the body.
 *
 * @example
 *   return respondNegotiated(c, JSON.stringify(value), 200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
 */
import type { Context } from 'hono';
import { gzip, sha256Hex } from '../../snapshots/codec.js';
import type { ProxyEnv } from '../env.js';
import { acceptsGzip } from '../serve-object/accept-encoding.js';
import { ifNoneMatchHits } from '../serve-object/etag.js';
import { send, type Answer, type HeaderBag } from './response-headers.js';

/**
 * The partner document (part 2) says gzip is applied when the client accepts it, so every 2xx
 * document is compressed then, whatever its size (as every stored object is). Error bodies are the
 * document's "errors if large" (issue 21): a typical one (about 150 bytes) is sent plain, because
 * gzip's header and trailer (18 bytes) and a short text's poor ratio would make it larger.
 */
export const ERROR_GZIP_MIN_BYTES = 1024;

export function respondNegotiated(
  c: Context<ProxyEnv>,
  body: string,
  status: number,
  own: HeaderBag,
  options: { etag?: boolean } = {},
): Promise<Response> {
  return send(c, negotiated(c, body, status, own, options));
}

/** The answer respondNegotiated sends, not yet a Response (the error responder's 429 is made with it inside the audit commit). */
export function negotiated(
  c: Context<ProxyEnv>,
  body: string,
  status: number,
  own: HeaderBag,
  options: { etag?: boolean } = {},
): Answer {
  const headers: HeaderBag = { ...own, Vary: 'Accept-Encoding' };
  let bytes: Buffer | string = body;
  let length = Buffer.byteLength(body);
  const large = status < 400 || length >= ERROR_GZIP_MIN_BYTES;
  if (large && acceptsGzip(c.req.header('accept-encoding'))) {
    bytes = gzip(body);
    length = bytes.length;
    headers['Content-Encoding'] = 'gzip';
  }
  if (options.etag === true) {
    headers.ETag = `"${sha256Hex(bytes)}"`;
    if (ifNoneMatchHits(c.req.header('if-none-match'), headers.ETag)) {
      delete headers['Content-Encoding'];
      return { body: null, status: 304, headers, bytes: null };
    }
  }
  headers['Content-Length'] = String(length);
  return { body: c.req.method === 'HEAD' ? null : bytes, status, headers, bytes: length };
}
