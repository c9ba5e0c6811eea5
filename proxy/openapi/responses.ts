/**
 * Response components: every error status of API.md §6 with its body and headers, and 304. Each
 * error carries a real example captured from the proxy (see capture-examples.ts).
 */
import { RATE_HEADERS, headerSet } from './headers.js';
import type { OpenApiExamples } from './examples.js';
import type { Schema } from './schema-kit.js';

/** Status → component name, in the order operations list them. */
export const ERROR_RESPONSES = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  410: 'Gone',
  416: 'RangeNotSatisfiable',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'Unavailable',
} as const;
export type ErrorStatus = keyof typeof ERROR_RESPONSES;

const DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: '`invalid_parameter`: a path or query parameter (or a body field) breaks its rule, is unknown or is given twice; the message names it.',
  401: '`unauthenticated`: no valid credential. Sent on every `/v1` path, known or not, before routing.',
  403: '`forbidden`: the credential is valid but may not call this route.',
  404: '`not_found`: no such id, set, artist, series, handle, key or route in the current snapshot.',
  405: '`method_not_allowed`: the path exists but not with this method (partner paths: anything but GET and HEAD); `Allow` lists the methods. Sent on every path of this document for any method it does not list.',
  410: '`gone`: `snapshot=` or `since=` names a snapshot that is no longer kept (older ones are pruned at each publish); start again from `GET /v1/snapshot`.',
  416: '`range_not_satisfiable`: the `Range` starts past the end of the file; `Content-Range: bytes */<size>` gives its size.',
  429: '`rate_limited`: the key is over its tier\'s requests per minute; retry after `Retry-After` seconds.',
  500: '`internal`: a server fault. No details leave the server; the request id finds it in the log.',
  503: '`unavailable`: no catalog snapshot has been published yet (search: or the snapshot has no usable index); on a fleet deployment also when its shared state (Redis, PostgreSQL) cannot count or audit the request, with `Retry-After`. `state_unavailable`: the state database (keys, counters, audit) could not be written, so the request is refused rather than served unaudited; retry after `Retry-After` seconds.',
};

const EXTRA_REQUIRED: Partial<Record<ErrorStatus, string[]>> = {
  401: ['WWW-Authenticate'],
  405: ['Allow'],
  416: ['Content-Range'],
  429: ['Retry-After', ...RATE_HEADERS],
};

export function responseComponents(examples: OpenApiExamples): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const [status, name] of Object.entries(ERROR_RESPONSES)) {
    const code = Number(status) as ErrorStatus;
    const example = examples.errors[String(code)];
    const required = ['X-Request-Id', 'Cache-Control', ...(EXTRA_REQUIRED[code] ?? [])];
    out[name] = {
      description: DESCRIPTIONS[code],
      // Vary and Content-Encoding: an error the app answers is negotiated like any body it builds (a
      // long one is gzipped); the ones node:http refuses before the app runs have neither.
      headers: headerSet(required, [...(code === 429 ? [] : code === 503 ? ['Retry-After', ...RATE_HEADERS] : RATE_HEADERS), 'Vary', 'Content-Encoding']),
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          ...(example === undefined ? {} : { examples: { [name]: { summary: example.request, value: example.body } } }),
        },
      },
    };
  }
  out.NotModified = {
    description: 'The representation named in If-None-Match is still current: no body; the cached copy stays good.',
    headers: headerSet(['X-Request-Id', 'ETag', 'Cache-Control', 'Vary'], ['X-Snapshot-Id', 'Link', ...RATE_HEADERS]),
  };
  out.FileNotModified = {
    description: 'The snapshot file or document named in If-None-Match is still current: no body.',
    headers: headerSet(['X-Request-Id', 'ETag', 'Cache-Control'], ['X-Snapshot-Id', 'Accept-Ranges', 'Content-Disposition', 'X-Key-Fingerprint', 'Vary', ...RATE_HEADERS]),
  };
  return out;
}

/** `file`: the 304 of the snapshot and bulk routes; Vary only from those whose body is built per request. */
export const responseRef = (status: ErrorStatus | 304 | 'file304'): Schema => {
  const name = status === 304 ? 'NotModified' : status === 'file304' ? 'FileNotModified' : ERROR_RESPONSES[status];
  return { $ref: `#/components/responses/${name}` };
};
