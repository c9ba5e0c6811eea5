/**
 * Answers given before the app runs, each with the JSON body of API.md §6 and a request id (see
 * raw-error.ts): a target over the URL limit, a target @hono/node-server cannot turn into a URL, and
 * a request node:http itself refused (headers too large, too slow, not HTTP).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { CatalogError } from '../../snapshots/errors.js';
import { rawError, rawErrorResponse } from './raw-error.js';

/** Request line + headers; Node answers 431 above it. */
export const MAX_HEADER_BYTES = 16 * 1024;
/** Longest request target (path + query) accepted; longer ones get a JSON 400 before the app runs. */
export const MAX_URL_BYTES = 8 * 1024;

/**
 * A request target over MAX_URL_BYTES is refused before the app runs (nothing downstream should
 * parse or log an 8 KiB path). The body follows API.md §6 and the status comes from the code table.
 */
export function rejectLongUrl(req: IncomingMessage, res: ServerResponse): boolean {
  if ((req.url?.length ?? 0) <= MAX_URL_BYTES) return false;
  const { status, headers, body } = rawError(new CatalogError('invalid_parameter', `the request URL is longer than ${MAX_URL_BYTES} bytes`, { parameter: 'url' }));
  res.writeHead(status, headers);
  res.end(body);
  return true;
}

/**
 * A request @hono/node-server could not turn into a fetch Request (a backslash in the path, a target
 * that is no URL, a bad Host): without this it answers a bare 400 with no body and no X-Request-Id.
 * Anything else reaching here escaped the app's own error handler; it gets the generic 500.
 */
export function answerAdapterError(err: unknown): Response {
  const refusal = (err as Error | null)?.name === 'RequestError'
    ? new CatalogError('invalid_parameter', `the request target is not a valid URL (${(err as Error).message})`, { parameter: 'url' })
    : new CatalogError('internal', 'internal error');
  const { status, headers, body } = rawError(refusal);
  return new Response(body, { status, headers });
}

/**
 * A request node:http refused before the app could see it: headers over MAX_HEADER_BYTES (431), a
 * client too slow with its headers or body (408), bytes that are not HTTP/1.1 (400). Answered with
 * the JSON error body, then the socket is closed. Like Node's own handler, nothing is written when
 * a response on that socket has already started (it would corrupt it); the socket is just closed.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || (inFlight && inFlight.headersSent)) {
    socket.destroy();
    return;
  }
  const refusal = err.code === 'HPE_HEADER_OVERFLOW'
    ? new CatalogError('headers_too_large', `the request line and headers are larger than ${MAX_HEADER_BYTES} bytes`)
    : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new CatalogError('request_timeout', 'the request was not received in time; send the headers and body without pauses')
      : new CatalogError('invalid_parameter', `the request is not valid HTTP/1.1 (${err.code ?? 'parse error'})`, { parameter: 'request' });
  socket.end(rawErrorResponse(refusal, refusedMethod(err)), () => socket.destroy());
}

/**
 * The method of the request node:http refused, read from the bytes it was parsing (`rawPacket`, set
 * on parse errors: the request line when the request came in one read, as it nearly always does);
 * undefined when they do not start with one (a timeout has none).
 */
function refusedMethod(err: NodeJS.ErrnoException): string | undefined {
  const raw = (err as NodeJS.ErrnoException & { rawPacket?: unknown }).rawPacket;
  if (!Buffer.isBuffer(raw)) return undefined;
  return /^([A-Z]+) /.exec(raw.toString('latin1', 0, 16))?.[1];
}
