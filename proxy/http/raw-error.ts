/**
 * Error answers given before the app runs: a request target over the URL limit (written on the
 * ServerResponse) and a request node:http itself refused (headers too large, too slow, not HTTP),
 * written straight on the socket because there is no response object then. Both carry the body of
 * API.md §6 with the status of snapshots/errors.ts, like every answer of the app, instead of Node's
 * bare `HTTP/1.1 400 Bad Request`.
 *
 * @example
 *   socket.end(rawErrorResponse(new CatalogError('request_timeout', 'too slow')));
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { CatalogError } from '../../snapshots/errors.js';

export interface RawError {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function rawError(err: CatalogError): RawError {
  const requestId = randomUUID();
  const body = JSON.stringify({ error: err.code, message: err.message, requestId });
  return {
    status: err.status,
    headers: {
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(body)),
      'Cache-Control': 'no-store',
      'X-Request-Id': requestId,
      Connection: 'close',
    },
    body,
  };
}

/**
 * The whole HTTP/1.1 response as bytes, for a socket that has no ServerResponse. The answer to a HEAD
 * request has the same headers and no body: a client reads none after a HEAD answer, so a body would
 * be taken for a broken next response.
 */
export function rawErrorResponse(err: CatalogError, method?: string): string {
  const { status, headers, body } = rawError(err);
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n${method === 'HEAD' ? '' : body}`;
}
