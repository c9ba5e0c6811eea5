/**
 * What `catalog compile` reports while it runs. On a terminal: the live progress line of
 * cli/progress.ts. Otherwise (a nightly job, a container): JSON log lines through pino (cli/log.ts),
 * one when a phase starts, one when it ends with its count and duration, a warning per note
 * (skipped records), and a last line with the snapshot's counts, so the job's log says what ran and
 * how long each part took without parsing a progress bar.
 *
 * @example
 *   {"level":"info","time":"…","msg":"phase finished","phase":"cards and figures","count":27000,"total":27000,"durationMs":5120}
 */
import type { Logger } from 'pino';
import type { ProgressSink } from '../compiler/compile/progress.js';
import type { CliIO } from './io.js';
import { createTerminalProgress } from './progress.js';

export interface CompileLog extends ProgressSink {
  /** The compile succeeded: ends the last phase and logs the summary. */
  compiled(summary: Record<string, unknown>): void;
  /** A later step succeeded (the publish to an object store, its prune): ends its last phase and logs `message` with `summary`. */
  finished(message: string, summary: Record<string, unknown>): void;
  /** Always called last: clears the terminal line, or logs a phase left open by a failure. */
  finish(): void;
}

export function createCompileLog(io: CliIO, logger: Logger, clock: () => number = Date.now): CompileLog {
  if (io.stderr.isTTY === true) {
    const terminal = createTerminalProgress(io, clock);
    return {
      phase: terminal.phase,
      advance: terminal.advance,
      note: terminal.note,
      compiled: () => terminal.finish(),
      finished: () => terminal.finish(),
      finish: terminal.finish,
    };
  }
  let open: { phase: string; total: number | null; count: number; started: number } | null = null;
  const end = (message: string) => {
    if (open === null) return;
    const { phase, total, count, started } = open;
    open = null;
    const fields = { phase, count, total, durationMs: clock() - started };
    if (message === 'phase finished') logger.info(fields, message);
    else logger.warn(fields, message);
  };
  const finished = (message: string, summary: Record<string, unknown>) => {
    end('phase finished');
    logger.info(summary, message);
  };
  return {
    phase(name, total) {
      end('phase finished');
      open = { phase: name, total, count: 0, started: clock() };
      logger.info({ phase: name, total }, 'phase started');
    },
    advance(units) {
      if (open) open.count += units;
    },
    note(line) {
      logger.warn(line);
    },
    compiled: (summary) => finished('compile finished', summary),
    finished,
    finish() {
      end('phase stopped');
    },
  };
}
