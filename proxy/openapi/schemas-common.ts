/**
 * Schemas every response shares: the timestamp, the envelope of every 200 body and its page block
 * (API.md §2.5), and the error body (API.md §6).
 */
import { GAMES } from '../../snapshots/records.js';
import { arrayOf, bool, closed, int, nullable, oneOfValues, ref, str, TIMESTAMP_PATTERN, type Schema } from './schema-kit.js';

/** The codes a client can receive (proxy/errors.ts maps every other code to one of these). */
export const PUBLIC_ERROR_CODES = [
  'invalid_parameter', 'unauthenticated', 'forbidden', 'not_found', 'method_not_allowed', 'request_timeout', 'gone',
  'range_not_satisfiable', 'rate_limited', 'headers_too_large', 'internal', 'unavailable', 'state_unavailable',
] as const;

export function commonSchemas(): Record<string, Schema> {
  return {
    Timestamp: {
      type: 'string',
      format: 'date-time',
      pattern: TIMESTAMP_PATTERN,
      description: 'UTC instant with milliseconds, `YYYY-MM-DDTHH:MM:SS.mmmZ`; days without a time are sent as midnight UTC.',
      examples: ['2026-11-20T00:00:00.000Z'],
    },
    Game: oneOfValues(GAMES, 'A trading-card game.'),
    Page: closed({
      page: int('1-based page number.', 1),
      limit: int('Items per page (capped at 100).', 1),
      total: int('Items in the whole list.'),
      totalPages: int('Pages in the whole list (at least 1).', 1),
      hasMore: bool('Whether a next page exists.'),
    }, 'Where a list page sits in its list.'),
    Warnings: arrayOf(str(), 'What the server adjusted in the request, e.g. `limit capped at 100`.'),
    Error: closed({
      error: oneOfValues(PUBLIC_ERROR_CODES, 'Stable machine code.'),
      message: str('One sentence for people; for 400 it names the parameter.'),
      requestId: { type: 'string', format: 'uuid', description: 'The X-Request-Id of this response: quote it when reporting a problem.' },
    }, 'Every error body (API.md §6).'),
  };
}

/** The envelope of API.md §2.5 around `data`, with `kind` fixed; lists carry a page block. */
export function envelopeSchema(kind: string, data: Schema, list: boolean, description: string): Schema {
  return closed({
    apiVersion: { const: 'v1' },
    kind: { const: kind },
    schemaVersion: { const: 1 },
    asOf: nullable(ref('Timestamp')),
    data: list ? arrayOf(data) : data,
    page: list ? ref('Page') : { type: 'null' },
    warnings: ref('Warnings'),
  }, description);
}
