/**
 * The logger the proxy is given. Fields are structured so a caller can ship them anywhere; the
 * proxy only ever passes method, route pattern, status, bytes, duration, request id, key ID,
 * tenant, snapshot id and error text, never a key, a cookie or a secret.
 *
 * Served processes get pino behind this interface (`pinoProxyLogger`: JSON lines, or pretty ones on
 * a terminal, see cli/log.ts); tests pass a two-method object and read what was logged.
 */
import type { Logger } from 'pino';

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

/** A ProxyLogger writing through pino: `info` at level info, `error` at level error. */
export function pinoProxyLogger(logger: Logger): ProxyLogger {
  return {
    error: (message, fields) => logger.error(fields, message),
    info: (message, fields) => logger.info(fields, message),
  };
}

/**
 * Cuts any stack trace in a field to its first line: stack frames carry file paths of the install
 * and say nothing an operator can act on; the request id finds the request.
 */
export function stackless(logger: ProxyLogger): ProxyLogger {
  const clean = (fields: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields)) out[k] = typeof v === 'string' && /\n\s+at /.test(v) ? v.split('\n', 1)[0] : v;
    return out;
  };
  return {
    error: (message, fields) => logger.error(message, clean(fields)),
    info: (message, fields) => logger.info(message, fields),
  };
}
