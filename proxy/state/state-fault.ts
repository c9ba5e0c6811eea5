/**
 * A failure of the state file itself (SQLite said BUSY past the busy timeout, READONLY, FULL, IOERR,
 * CORRUPT, …) as the one error the client sees: 503 `state_unavailable`. Bearer requests need the
 * state file to be counted and audited, so when it fails they fail closed instead of being answered
 * without their audit row (API.md §5). The SQLite code travels in `details.sqlite` for the log line;
 * the client gets a fixed message (no path, no SQL).
 *
 * Only errors raised by SQLite are translated: anything else (a bug, a closed connection) stays what
 * it is and becomes a 500 `internal`.
 *
 * @example
 *   await commits.run(() => writer.record(entry)).catch(rethrowStateFault);
 */
import Database from 'better-sqlite3';
import { CatalogError } from '../../snapshots/errors.js';

export const STATE_UNAVAILABLE_MESSAGE = 'The service cannot record this request right now, so it was not answered; retry in a few seconds.';

export function isStateFault(err: unknown): err is InstanceType<typeof Database.SqliteError> {
  return err instanceof Database.SqliteError;
}

/** Throws the 503 for a state fault, or the original error for anything else. */
export function rethrowStateFault(err: unknown): never {
  if (isStateFault(err)) {
    throw new CatalogError('state_unavailable', STATE_UNAVAILABLE_MESSAGE, { sqlite: err.code }, { cause: err });
  }
  throw err;
}

/** Runs a synchronous state read (e.g. the key check) with the same translation. */
export function guardState<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    return rethrowStateFault(err);
  }
}

export function isStateUnavailable(err: unknown): boolean {
  return err instanceof CatalogError && err.code === 'state_unavailable';
}
