/**
 * The operator log of `catalog serve` and `catalog compile`, through pino: human-readable lines on a
 * terminal (pino-pretty), one JSON object per line otherwise, on stderr (stdout is kept for the
 * lines scripts read: `listening on <url>`, the compile summary).
 *
 * Off a terminal the lines go through pino's asynchronous destination (SonicBoom on fd 2): a request
 * does not wait for a write, and lines logged while a write is in flight leave in one later write.
 * maxWrite is PIPE_BUF (4096) because cluster workers share the primary's stderr: SonicBoom cuts
 * its writes on line boundaries, and a pipe never interleaves writes of up to PIPE_BUF bytes, so
 * lines of different workers never mix. Pending lines are flushed when the process exits.
 *
 * @example
 *   const log = createCliLogger(io, parseLogLevel(io.env));
 *   log.info({ phase: 'publish', units: 1 }, 'phase finished');
 */
import pino, { type DestinationStream, type Level, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';
import { CatalogError } from '../snapshots/errors.js';
import type { CliIO } from './io.js';

export const LOG_LEVEL_VARIABLE = 'CATALOG_LOG_LEVEL';
export const DEFAULT_LOG_LEVEL: Level = 'info';
const LEVELS: readonly string[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
/** Writes of at most this size are atomic on a pipe (POSIX PIPE_BUF on Linux). */
const PIPE_BUF = 4096;

/** CATALOG_LOG_LEVEL: `info` by default; `warn` drops the per-request lines. */
export function parseLogLevel(env: NodeJS.ProcessEnv): Level | 'silent' {
  const raw = env[LOG_LEVEL_VARIABLE];
  if (raw === undefined || raw === '') return DEFAULT_LOG_LEVEL;
  if (!LEVELS.includes(raw)) {
    throw new CatalogError('config', `${LOG_LEVEL_VARIABLE} must be one of ${LEVELS.join(', ')}`, { setting: LOG_LEVEL_VARIABLE });
  }
  return raw as Level | 'silent';
}

function destination(io: CliIO): DestinationStream {
  if (io.stderr.isTTY === true) {
    // One line per entry: a terminal follows a request per line, as an access log does.
    const pretty = prettyFactory({ colorize: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
    return { write: (line: string) => void io.stderr.write(pretty(line)) };
  }
  // The real stderr gets the asynchronous writer; an injected stream (tests) is written to directly.
  if (io.stderr === process.stderr) return pino.destination({ dest: 2, sync: false, maxWrite: PIPE_BUF });
  return { write: (line: string) => void io.stderr.write(line) };
}

export function createCliLogger(io: CliIO, level: Level | 'silent'): Logger {
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      // "info" rather than 30: a line reads the same to a person and to a log query.
      formatters: { level: (label) => ({ level: label }) },
    },
    destination(io),
  );
}
