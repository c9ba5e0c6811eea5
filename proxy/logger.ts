/**
 * The logger the proxy is given. Fields are structured so a caller can ship them anywhere; the
 * proxy only ever passes method, route, status, duration, request id and error text, never a key,
 * a cookie or a secret.
 */
export interface ProxyLogger {
  error(message: string, fields: Record<string, unknown>): void;
  info(message: string, fields: Record<string, unknown>): void;
}

/** Errors as JSON lines on stderr; the per-request line is dropped unless a logger is passed. */
export function defaultLogger(): ProxyLogger {
  return {
    error: (message, fields) => process.stderr.write(JSON.stringify({ level: 'error', message, ...fields }) + '\n'),
    info: () => undefined,
  };
}
