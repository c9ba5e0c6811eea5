/**
 * The one way fleet state failures reach callers: a CatalogError `unavailable` (503 with
 * Retry-After; exit 69 in the CLI) naming the server, so a request whose count or audit entry
 * could not be written is refused instead of answered unaccounted. A CatalogError thrown on
 * purpose (not found, invalid parameter) passes through unchanged.
 */
import { CatalogError, isCatalogError } from '../../../snapshots/errors.js';

export type FleetServer = 'Redis' | 'PostgreSQL';

export function fleetUnavailable(server: FleetServer, err: unknown): CatalogError {
  if (isCatalogError(err)) return err;
  const reason = err instanceof Error ? err.message : String(err);
  return new CatalogError('unavailable', `${server} is unavailable (${reason}); retry shortly, and check that ${server} runs and answers`, { server, retryAfter: 1 }, { cause: err });
}

/** Runs `work`, turning any failure of it into fleetUnavailable(server, …). */
export async function orUnavailable<T>(server: FleetServer, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw fleetUnavailable(server, err);
  }
}
