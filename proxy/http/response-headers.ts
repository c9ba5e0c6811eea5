/**
 * The headers every response of a request carries (X-Request-Id; RateLimit-Policy and RateLimit for
 * a bearer key), kept as one plain object in the context instead of Hono's `c.header()`.
 *
 * Why: `c.header()` keeps headers in a WHATWG `Headers` object (every set validates and lowercases
 * the name, the adapter then iterates and re-sorts it), and any read of `c.res.headers` by a
 * middleware turns the response's headers into such an object too. @hono/node-server has a fast
 * path for a Response built from a body and a PLAIN header object: it passes the object straight to
 * `writeHead` (see `responseViaCache` in its listener), and it keeps a reference to that object, not
 * a copy. The object routes (every card GET) answer through `respond()`, which hands the adapter one
 * plain object holding these headers and their own, and records the body length for the audit row,
 * so no middleware needs to look at the response's headers.
 *
 * Headers learned after the response was made (the rate-limit ones: the request is counted in the
 * same commit as its audit row, once the answer exists) go into the shared object too, and
 * `applyPending()` adds what a response lacks once the app has answered: a `respond()` response is
 * made again from its body and the completed plain object (still the fast path), any other response
 * gets them through `c.header()`.
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
  c.set('responseBytes', bytes);
  return made(body, status, headers);
}

interface Made {
  body: Uint8Array | string | ReadableStream | null;
  status: number;
  headers: HeaderBag;
}

/** What each response made by respond() was made from, so it can be made again with more headers. */
const madeByRespond = new WeakMap<Response, Made>();

function made(body: Made['body'], status: number, headers: HeaderBag): Response {
  const res = new Response(body as BodyInit | null, { status, headers });
  madeByRespond.set(res, { body, status, headers });
  return res;
}

/** After the app answered: adds the shared headers the response lacks (a route's own header wins). */
export function applyPending(c: Context<ProxyEnv>): void {
  const bag = c.get('responseHeaders');
  if (bag === undefined) return;
  const from = madeByRespond.get(c.res);
  if (from !== undefined) {
    // Made again from the same (unread) body and a plain object, not patched through c.header():
    // the adapter's fast path stays, and WHATWG's Response, which copies its headers when made,
    // gets them too.
    let missing = false;
    for (const name in bag) {
      if (name in from.headers) continue;
      from.headers[name] = bag[name];
      missing = true;
    }
    if (missing) {
      c.res = undefined;
      c.res = made(from.body, from.status, from.headers);
    }
    return;
  }
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
