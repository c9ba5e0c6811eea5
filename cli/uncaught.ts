/**
 * The last resort of a command: an exception that nothing could catch (thrown from a library's event
 * handler, or a rejected promise nobody awaited) ends the process the documented way, one
 * `catalog:` line on stderr and the exit code of its CatalogError (docs/snapshots.md#exit-codes),
 * instead of Node's stack trace and exit 1. Issue 21: an assertion inside undici, thrown from a
 * socket's 'end' handler, ended nightly compiles with a raw stack trace.
 *
 * After such an exception nothing about the process can be trusted, so it exits at once, after
 * synchronous steps only (Node's advice for 'uncaughtException'). A compile that ends so leaves
 * what a killed compile leaves, which the next compile handles: `current` unchanged, a half-written
 * folder it removes, a lock whose process is gone, which it takes over.
 *
 * @example
 *   const release = exitOnUncaught(process, io, () => progress.finish());
 *   try { await compileSnapshot(...); } finally { release(); }
 */
import { sep } from 'node:path';
import { CatalogError, isCatalogError } from '../snapshots/errors.js';
import type { CliIO } from './io.js';
import { systemError } from './system-errors.js';

/** What of `process` the guard uses (a fake in tests). */
export interface ProcessLike {
  on(event: 'uncaughtException', listener: (err: unknown) => void): unknown;
  off(event: 'uncaughtException', listener: (err: unknown) => void): unknown;
  exit(code: number): void;
}

const UNDICI_FRAME = `${sep}node_modules${sep}undici${sep}`;

/**
 * The CatalogError an uncaught exception stands for. Inside a command only the HTTP catalog source
 * talks to servers through undici: an error raised in undici (by its code, or by where it was
 * thrown) is a source failure; an operating-system error keeps its advice (systemError); anything
 * else is internal.
 */
export function uncaughtError(err: unknown): CatalogError {
  if (isCatalogError(err)) return err;
  const system = systemError(err);
  if (system !== null) return system;
  const e = err as { code?: unknown; message?: unknown; stack?: unknown } | null;
  const what = `${typeof e?.message === 'string' && e.message !== '' ? e.message.split('\n')[0] : String(err)}${where(err)}`;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (code.startsWith('UND_ERR_') || (typeof e?.stack === 'string' && e.stack.includes(UNDICI_FRAME))) {
    return new CatalogError('source_unreachable', `the HTTP source failed inside the HTTP client (undici): ${code ? `${code}: ` : ''}${what}`, {}, { cause: err });
  }
  return new CatalogError('internal', `unexpected failure: ${what}`, {}, { cause: err });
}

/** ` (at file:line:col)` of the first stack frame, or ''; the place a bug report needs, without the whole trace. */
function where(err: unknown): string {
  const stack = (err as { stack?: unknown } | null)?.stack;
  if (typeof stack !== 'string') return '';
  const frame = stack.split('\n').find((line) => /^\s+at /.test(line));
  return frame === undefined ? '' : ` (${frame.trim()})`;
}

/**
 * Until the returned function is called, an uncaught exception (or, with Node's default
 * --unhandled-rejections=throw, an unhandled rejection) writes `catalog: <message>` to stderr and
 * exits with that error's code. `beforeExit` runs first (synchronous: e.g. end a progress line).
 */
export function exitOnUncaught(target: ProcessLike, io: CliIO, beforeExit: () => void = () => {}): () => void {
  const onUncaught = (err: unknown): void => {
    const known = uncaughtError(err);
    try {
      beforeExit();
    } finally {
      io.stderr.write(`catalog: ${known.message}\n`);
      target.exit(known.exitCode);
    }
  };
  target.on('uncaughtException', onUncaught);
  return () => {
    target.off('uncaughtException', onUncaught);
  };
}
