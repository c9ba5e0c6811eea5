/**
 * What "a documented answer" means for the hostile-input tests: a success of docs/api.md (an
 * enveloped JSON document, 201 of a mint, 304 of a revalidation) or one of the documented error
 * bodies `{"error","message","requestId"}` whose status is the one snapshots/errors.ts maps its code
 * to, with X-Request-Id on the response. Never a 5xx. Returns a problem description, or null.
 */
import { gunzipSync } from 'node:zlib';
import { ERROR_CODES, type ErrorCode } from '../../snapshots/errors.js';

/** The codes a client may receive for a request it chose (docs/api.md "Errors"); no 5xx among them. */
export const CLIENT_ERROR_CODES: readonly ErrorCode[] = [
  'invalid_parameter', 'unauthenticated', 'forbidden', 'not_found', 'method_not_allowed', 'request_timeout', 'rate_limited', 'headers_too_large',
];

export interface Answer {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
  body: Buffer;
  method: string;
}

export function problemWith(a: Answer): string | null {
  if (a.status >= 500) return `status ${a.status}: ${a.body.toString('utf8').slice(0, 200)}`;
  const requestId = a.headers['x-request-id'];
  if (!requestId) return `status ${a.status} without X-Request-Id`;
  if (a.method === 'HEAD' || a.status === 304) return a.body.length === 0 ? null : `${a.method} ${a.status} with a body`;
  let text: string;
  try {
    text = (a.headers['content-encoding'] === 'gzip' ? gunzipSync(a.body) : a.body).toString('utf8');
  } catch (err) {
    return `status ${a.status}: body does not decode (${(err as Error).message})`;
  }
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return `status ${a.status}: body is not JSON: ${text.slice(0, 200)}`;
  }
  if (a.status === 200 || a.status === 201) {
    if (a.status === 200 && json.apiVersion !== 'v1') return `200 without an envelope: ${text.slice(0, 200)}`;
    return null;
  }
  const code = json.error as ErrorCode;
  if (!CLIENT_ERROR_CODES.includes(code)) return `status ${a.status}: undocumented error ${String(json.error)}`;
  if (ERROR_CODES[code].status !== a.status) return `error ${code} sent with status ${a.status}`;
  if (typeof json.message !== 'string' || json.message.length === 0) return `error ${code} without a message`;
  if (json.requestId !== requestId) return `error ${code}: requestId ${String(json.requestId)} is not the X-Request-Id ${requestId}`;
  if (a.status === 401 && !a.headers['www-authenticate']?.startsWith('Bearer ')) return '401 without the Bearer challenge';
  return null;
}

export async function answerOf(res: Response, method: string): Promise<Answer> {
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => (headers[name] = value));
  return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()), method };
}
