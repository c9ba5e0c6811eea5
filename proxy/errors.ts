/**
 * The one place that turns an error into an HTTP response (API.md §6): JSON
 * `{"error","message","requestId"}`, status from ERROR_CODES, `Cache-Control: no-store`, plus the
 * headers a code implies (WWW-Authenticate on 401, Allow on 405, Retry-After on 429 and on the
 * 503s of the state). Handlers and
 * middleware only throw CatalogError; they never build an error body.
 *
 * Operator-side failures (a CatalogError whose status is 500, such as `io`) and unknown exceptions
 * become 500 `internal` with a fixed message: their text can hold file paths or stack frames. They
 * are logged with the request id so the operator can find them. A state-file fault (503
 * `state_unavailable`) is public but is an operator's problem too, so it is logged as well, once.
 */
import type { Context, ErrorHandler } from 'hono';
import { ERROR_CODES, isCatalogError, type CatalogError, type ErrorCode } from '../snapshots/errors.js';
import type { ProxyEnv } from './env.js';
import { redactKeys } from './keys/format.js';
import { negotiated } from './http/respond-negotiated.js';
import { send, type Answer } from './http/response-headers.js';
import type { ProxyLogger } from './logger.js';
import { STATE_UNAVAILABLE_MESSAGE } from './state/state-fault.js';

/** Codes a client may see, and what operator-side codes are shown as. */
const PUBLIC_CODE: Partial<Record<ErrorCode, ErrorCode>> = {
  invalid_parameter: 'invalid_parameter',
  usage: 'invalid_parameter',
  unauthenticated: 'unauthenticated',
  forbidden: 'forbidden',
  not_found: 'not_found',
  gone: 'gone',
  range_not_satisfiable: 'range_not_satisfiable',
  method_not_allowed: 'method_not_allowed',
  rate_limited: 'rate_limited',
  request_timeout: 'request_timeout',
  headers_too_large: 'headers_too_large',
  unavailable: 'unavailable',
  state_unavailable: 'state_unavailable',
  source_unreachable: 'unavailable',
};

/** Details of a CatalogError copied into its log line. */
const LOGGED_DETAILS = ['key', 'snapshotId', 'sqlite', 'server'] as const;

const INTERNAL_MESSAGE = 'The server failed to answer this request; quote the requestId when reporting it.';

export interface ErrorResponder {
  /** The Hono onError hook. */
  onError: ErrorHandler<ProxyEnv>;
  /** Sends a CatalogError (used by notFound, which Hono does not route through onError). */
  respond(c: Context<ProxyEnv>, err: CatalogError): Promise<Response>;
  /** The answer for a CatalogError, not yet a Response (the 429 that replaces an answer inside the audit commit). */
  answer(c: Context<ProxyEnv>, err: CatalogError): Answer;
}

export function createErrorResponder(options: { realm: string; logger: ProxyLogger }): ErrorResponder {
  const { realm, logger } = options;

  function render(c: Context<ProxyEnv>, code: ErrorCode, message: string, extra: Record<string, string>): Answer {
    const body = JSON.stringify({ error: code, message: redactKeys(message), requestId: c.get('requestId') ?? null });
    // Also carries the request's shared headers (X-Request-Id, RateLimit on a 429); a long message
    // (it can quote a parameter) is gzipped like any other body the proxy builds.
    return negotiated(c, body, ERROR_CODES[code].status, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      ...extra,
    });
  }

  function answer(c: Context<ProxyEnv>, err: CatalogError): Answer {
    const code = PUBLIC_CODE[err.code];
    if (code === undefined) return internal(c, err);
    const extra: Record<string, string> = {};
    if (code === 'unauthenticated') {
      // RFC 6750 §3: error="invalid_token" only when a credential was presented and refused.
      extra['WWW-Authenticate'] = `Bearer realm="${realm}", scope="v1"${err.details.invalidToken === true ? ', error="invalid_token"' : ''}`;
    }
    if (code === 'method_not_allowed' && typeof err.details.allow === 'string') extra.Allow = err.details.allow;
    if (code === 'rate_limited' && typeof err.details.retryAfter === 'number') extra['Retry-After'] = String(err.details.retryAfter);
    if (code === 'state_unavailable') {
      extra['Retry-After'] = '1';
      logFailure(c, 'state file unavailable', err);
    }
    // The fleet state (Redis or PostgreSQL, state/fleet/unavailable.ts) could not count or record
    // the request: refused, never answered unaccounted (issue 18). Retry-After tells well-behaved
    // clients when to come back (RFC 9110 §10.2.3); the message names no server or address.
    if (code === 'unavailable' && typeof err.details.server === 'string') {
      extra['Retry-After'] = String(typeof err.details.retryAfter === 'number' ? err.details.retryAfter : 1);
      logFailure(c, 'fleet state unavailable', err);
      return render(c, code, STATE_UNAVAILABLE_MESSAGE, extra);
    }
    // A 503 with a cause is a failure on the server's side (an object store that cannot be read, a
    // search index that cannot be opened), not "nothing published yet": the partner gets the
    // public message, the log the cause.
    if (code === 'unavailable' && err.cause !== undefined) logFailure(c, 'snapshot data unavailable', err);
    if (code === 'range_not_satisfiable' && typeof err.details.contentRange === 'string') extra['Content-Range'] = err.details.contentRange;
    return render(c, code, err.message, extra);
  }

  function logFailure(c: Context<ProxyEnv>, message: string, err: unknown): void {
    const fields: Record<string, unknown> = {
      requestId: c.get('requestId') ?? null,
      method: c.req.method,
      route: c.get('routePattern') ?? '(unmatched)',
    };
    if (isCatalogError(err)) {
      // The code and the operator-facing details (an object key, a snapshot id, an SQLite code);
      // details never carry a credential (gate errors are public codes and are not logged).
      fields.code = err.code;
      for (const name of LOGGED_DETAILS) if (err.details[name] !== undefined) fields[name] = err.details[name];
    }
    fields.error = redactKeys(err instanceof Error ? (err.stack ?? err.message) : String(err));
    if (isCatalogError(err) && err.cause instanceof Error) fields.cause = err.cause.message;
    logger.error(message, fields);
  }

  function internal(c: Context<ProxyEnv>, err: unknown): Answer {
    // A client that hung up (or was cut off for sending too slowly) while its request was read is
    // not a server fault: nobody receives this answer, and a slowloris would otherwise fill the log.
    if (c.req.raw.signal?.aborted !== true) logFailure(c, 'request failed', err);
    return render(c, 'internal', INTERNAL_MESSAGE, {});
  }

  return {
    answer,
    respond: (c, err) => send(c, answer(c, err)),
    onError: (err, c) => send(c, isCatalogError(err) ? answer(c, err) : internal(c, err)),
  };
}
