/**
 * The last stage of the request path (proxy/request-path.ts): the response, built ONCE, from the
 * answer a route (or the error responder) made and the headers every response of the request
 * carries (X-Request-Id; RateLimit-Policy and RateLimit for a bearer key), which are kept as one
 * plain object in the context instead of Hono's `c.header()`.
 *
 * Why a plain object: `c.header()` keeps headers in a WHATWG `Headers` object (every set validates
 * and lowercases the name, the adapter then iterates and re-sorts it), and any read of
 * `c.res.headers` by a middleware turns the response's headers into such an object too.
 * @hono/node-server has a fast path for a Response built from a body and a PLAIN header object: it
 * passes the object straight to `writeHead` (see `responseViaCache` in its listener).
 *
 * Why once, and only here: the rate-limit headers are learned when the request is counted, in the
 * same commit as its audit row, which needs the answer's status and length. So `respond()` first
 * hands the answer (body, status, own headers, length) to the request's `settle` step (audit and
 * limit, proxy/audit/settle.ts), which commits the count and the row and may swap the answer for the
 * 429; only then is the Response made, with every shared header already known. A dropped answer's
 * body is cancelled, never wrapped.
 *
 * @example
 *   return respond(c, bytes, 200, { 'Content-Type': 'application/json' }, bytes.length);
 */
import type { Context } from 'hono';
import type { ProxyEnv } from '../env.js';

export type HeaderBag = Record<string, string>;

/** What a route answered, before it is a Response. */
export interface Answer {
  body: Uint8Array | string | ReadableStream | null;
  status: number;
  /** The answer's own headers; a shared header of the same name loses to them. */
  headers: HeaderBag;
  /** The body length for the audit row and the log (null when unknown up front, e.g. a stream). */
  bytes: number | null;
}

/**
 * Commits what must be committed before the answer leaves (the audit row and the rate-limit count)
 * and returns the answer to send: this one, or one that replaces it (the 429). Set per request by
 * the request path; absent (a bare router in a test, the routes before the gate), answers go as made.
 */
export type Settle = (c: Context<ProxyEnv>, answer: Answer) => Answer | Promise<Answer>;

/** This request's shared headers (created empty if no middleware made them, e.g. a bare router in a test). */
export function responseHeadersOf(c: Context<ProxyEnv>): HeaderBag {
  let bag = c.get('responseHeaders');
  if (bag === undefined) {
    bag = {};
    c.set('responseHeaders', bag);
  }
  return bag;
}

/** The response for this answer (see the file comment); `bytes` as in `Answer`. */
export function respond(
  c: Context<ProxyEnv>,
  body: Answer['body'],
  status: number,
  own: HeaderBag,
  bytes: number | null,
): Promise<Response> {
  return send(c, { body, status, headers: own, bytes });
}

export async function send(c: Context<ProxyEnv>, answer: Answer): Promise<Response> {
  const settle = c.get('settle');
  let final = answer;
  if (settle !== undefined) {
    // Once per request: an answer made after it (the 503 of a commit that failed) goes as made.
    c.set('settle', undefined);
    final = await settle(c, answer);
  }
  c.set('responseBytes', final.bytes);
  return new Response(final.body as BodyInit | null, { status: final.status, headers: Object.assign({}, responseHeadersOf(c), final.headers) });
}

/** Drops an answer that will not be sent: a streamed body is cancelled, so its source is released. */
export function dropAnswer(answer: Answer): void {
  const body = answer.body;
  if (body !== null && typeof body === 'object' && 'cancel' in body) void body.cancel().catch(() => undefined);
}

/**
 * The body length of the response, for the request log: what respond() recorded, else a numeric
 * Content-Length (a response made outside it, e.g. the health routes), else null.
 */
export function responseBytesOf(c: Context<ProxyEnv>): number | null {
  const known = c.get('responseBytes');
  if (known !== undefined) return known;
  const length = c.res.headers.get('Content-Length');
  return length !== null && /^[0-9]+$/.test(length) ? Number(length) : null;
}
