/**
 * The one error type of the project. Every failure that reaches a user carries a stable machine
 * code; this file is the single place that maps a code to an HTTP status and a CLI exit code.
 * Handlers and commands throw `CatalogError`; the proxy's onError and the CLI's main translate it.
 *
 * @example
 *   throw new CatalogError('invalid_parameter', 'limit must be an integer from 1', { parameter: 'limit' });
 */
export const ERROR_CODES = {
  // HTTP-facing (API.md §6)
  invalid_parameter: { status: 400, exit: 64 },
  unauthenticated: { status: 401, exit: 77 },
  forbidden: { status: 403, exit: 77 },
  not_found: { status: 404, exit: 66 },
  method_not_allowed: { status: 405, exit: 64 },
  /** The client sent its request line and headers too slowly, or its body too slowly (docs/api.md). */
  request_timeout: { status: 408, exit: 75 },
  /** A snapshot that is no longer kept (changes `since`, a pinned `snapshot=`). */
  gone: { status: 410, exit: 66 },
  /** A `Range` outside the file (bulk downloads). */
  range_not_satisfiable: { status: 416, exit: 64 },
  rate_limited: { status: 429, exit: 75 },
  /** Request line + headers over the server's limit (16 KiB), e.g. an oversize Authorization. */
  headers_too_large: { status: 431, exit: 64 },
  internal: { status: 500, exit: 70 },
  unavailable: { status: 503, exit: 69 },
  /**
   * The proxy's state file (keys, counters, audit) cannot be read or written right now: locked past
   * the busy timeout, read-only, full, or failing I/O. Bearer requests fail closed with it: no answer
   * leaves without its audit row.
   */
  state_unavailable: { status: 503, exit: 69 },
  // CLI / operator-facing
  usage: { status: 400, exit: 64 },
  invalid_source: { status: 500, exit: 65 },
  source_unreachable: { status: 503, exit: 69 },
  verify_failed: { status: 500, exit: 65 },
  config: { status: 500, exit: 78 },
  io: { status: 500, exit: 74 },
  /** Another compile holds the snapshot root's lock (EX_TEMPFAIL: try again later). */
  locked: { status: 409, exit: 75 },
  /** A stored snapshot object that is not the gzip it should be (truncated, corrupted); `catalog verify` names it too. */
  corrupt_object: { status: 500, exit: 65 },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class CatalogError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CatalogError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }

  get exitCode(): number {
    return ERROR_CODES[this.code].exit;
  }
}

export function isCatalogError(err: unknown): err is CatalogError {
  return err instanceof CatalogError;
}

/** Exit code of a CLI run that ended without an error. */
export const EXIT_OK = 0;
