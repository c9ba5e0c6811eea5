/**
 * The key check, shared by the requests that arrive in the same event-loop turn. Under load a
 * partner's requests come in bursts on many connections; each check is a SELECT on the key table
 * (~8-12 µs, the largest single SQLite cost per request once audit rows and counters are group
 * committed), and requests parsed in one turn are concurrent: none of them was sent after another
 * was answered. So the first check of a key in a turn is reused by the others of that turn, and the
 * memo is dropped at the end of the turn (setImmediate runs after the poll phase that parsed them).
 *
 * Revocation is unchanged for any request that arrives after the revocation committed: it is parsed
 * in a later turn and reads the row afresh (docs/auth.md: "on the next request in every process").
 * Memory: at most the keys presented in one turn, then nothing.
 *
 * @example
 *   const check = createTurnCheck(keys);
 *   check(presented)   // same result as keys.check(presented)
 */
import type { KeyCheck } from './store.js';

/** The gate's key check: synchronous on the SQLite state, a promise on the fleet state (a cache over PostgreSQL). */
export type KeyChecker = (presented: string) => KeyCheck | Promise<KeyCheck>;

/** Generic over the result, so the fleet's pending lookups are shared by a turn's requests as well. */
export function createTurnCheck<R extends KeyCheck | Promise<KeyCheck>>(keys: { check(presented: string): R }): (presented: string) => R {
  let memo: Map<string, R> | null = null;
  const forget = () => {
    memo = null;
  };
  return (presented) => {
    const hit = memo?.get(presented);
    if (hit) return hit;
    const result = keys.check(presented);
    if (memo === null) {
      memo = new Map();
      setImmediate(forget);
    }
    memo.set(presented, result);
    return result;
  };
}
