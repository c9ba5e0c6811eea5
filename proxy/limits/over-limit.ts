/**
 * Which keys this process has seen refused in the current window. Counts only grow within a window,
 * so a key refused once in window W is refused for the rest of W: its later requests are not handed
 * to the routes at all (no search, no object read), only counted and audited with their 429. The
 * count itself still comes from the state file; this memo only saves the work of answering.
 *
 * At most one entry per key that went over its limit; an entry of a past window is dropped when the
 * key is next seen.
 *
 * @example
 *   const overLimit = createOverLimitMemo();
 *   overLimit.refused('4fZk2QpA', 1795000020);
 *   overLimit.isOver('4fZk2QpA', 1795000020);   // true until the window changes
 */
export interface OverLimitMemo {
  /** Records that the key was refused in the window starting at `windowStart` (seconds). */
  refused(keyId: string, windowStart: number): void;
  isOver(keyId: string, windowStart: number): boolean;
}

export function createOverLimitMemo(): OverLimitMemo {
  const refusedIn = new Map<string, number>();
  return {
    refused(keyId, windowStart) {
      refusedIn.set(keyId, windowStart);
    },
    isOver(keyId, windowStart) {
      const w = refusedIn.get(keyId);
      if (w === undefined) return false;
      if (w === windowStart) return true;
      if (w < windowStart) refusedIn.delete(keyId);
      return false;
    },
  };
}
