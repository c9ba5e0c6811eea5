/**
 * The headers every response of a request carries (X-Request-Id; RateLimit-Policy and RateLimit for
 * a bearer key), kept as one plain object in the context instead of Hono's `c.header()`.
 *
 * Why: `c.header()` keeps headers in a WHATWG `Headers` object (every set validates and lowercases
 * the name, the adapter then iterates and re-sorts it), and any read of `c.res.headers` by a
 * middleware turns the response's headers into such an object too. @hono/node-server has a fast
 * path for a Response built from a body and a PLAIN header object: it passes the object straight to
 * `writeHead` (see `responseViaCache` in its listener). The object routes (every card GET) answer
 * through `respond()`, which hands the adapter one plain object holding these headers and their own,
 * and records the body length for the audit row, so no middleware needs to look at the response's
 * headers. Responses built any other way (search, admin, Hono's own) get the missing headers added
 * afterwards by `applyPending()`, as before.
 *
 * @example
 *   responseHeadersOf(c)['RateLimit'] = '"free";r=59;t=30';
 *   return respond(c, bytes, 200, { 'Content-Type': 'application/json' }, bytes.length);
 */
import type { Context } from 'hono';
import type { ProxyEnv } from '../env.js';

export type HeaderBag = Record<string, string>;

/** This request's shared headers (created empty if no middleware made them, e.g. a bare router in a test). */
export function responseHeadersOf(c: Context<ProxyEnv>): HeaderBag {
  let bag = c.get('responseHeaders');
  if (bag === undefined) {
    bag = {};
    c.set('responseHeaders', bag);
  }
  return bag;
}

/**
 * The response, with the shared headers merged under `own` (a route's header wins on a clash, as
 * with Hono's prepared headers). `bytes` is the body length recorded in the audit row (null when
 * unknown up front, e.g. a streamed body).
 */
export function respond(
  c: Context<ProxyEnv>,
  body: Uint8Array | string | ReadableStream | null,
  status: number,
  own: HeaderBag,
  bytes: number | null,
): Response {
  const headers = Object.assign({}, responseHeadersOf(c), own);
  c.set('headersApplied', true);
  c.set('responseBytes', bytes);
  return new Response(body as BodyInit | null, { status, headers });
}

/** After the app answered: adds the shared headers a response built without `respond()` lacks. */
export function applyPending(c: Context<ProxyEnv>): void {
  if (c.get('headersApplied') === true) return;
  const bag = c.get('responseHeaders');
  if (bag === undefined) return;
  for (const name in bag) {
    if (!c.res.headers.has(name)) c.header(name, bag[name]);
  }
}

/**
 * The body length of the response, for the audit row and the request log: what respond() recorded
 * (reading c.res.headers would undo the adapter's fast path), else a numeric Content-Length, else null.
 */
export function responseBytesOf(c: Context<ProxyEnv>): number | null {
  const known = c.get('responseBytes');
  if (known !== undefined) return known;
  const length = c.res.headers.get('Content-Length');
  return length !== null && /^[0-9]+$/.test(length) ? Number(length) : null;
}
