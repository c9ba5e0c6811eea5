/**
 * Identity of records across kinds: the keys references are resolved by, and where rejected
 * records were rejected, so a record that refers to one is rejected with that reason instead of
 * a puzzling "unknown".
 *
 * @example
 *   const refs = createRefIndex();
 *   refs.markRejected('card:x', 'cards.ndjson:4');
 *   refs.problem('card x', 'card:x', false) // 'refers to card x, which was rejected (cards.ndjson:4)'
 */

export interface RefIndex {
  /** Where each rejected identity was rejected (`card:<id>` -> `cards.ndjson:4`). */
  readonly rejected: Map<string, string>;
  markRejected(key: string, where: string): void;
  /** A later line with this identity was accepted: references to it now resolve. */
  forget(key: string): void;
  /** The reason for a reference that does not resolve, or null when `exists`. */
  problem(what: string, key: string, exists: boolean): string | null;
}

export const refKey = {
  set: (game: string, code: string) => `set:${game}/${code}`,
  card: (id: string) => `card:${id}`,
  figure: (id: string) => `figure:${id}`,
  series: (id: string) => `series:${id}`,
  user: (id: string) => `user:${id}`,
  entity: (entity: string, id: string) => `${entity}:${id}`,
};

export function createRefIndex(rejected: Map<string, string> = new Map()): RefIndex {
  return {
    rejected,
    markRejected(key, where) {
      // The first rejection is the one worth naming; a later valid line with the same id wins (forget).
      if (!rejected.has(key)) rejected.set(key, where);
    },
    forget(key) {
      rejected.delete(key);
    },
    problem(what, key, exists) {
      if (exists) return null;
      const where = rejected.get(key);
      return where === undefined ? `refers to unknown ${what}` : `refers to ${what}, which was rejected (${where})`;
    },
  };
}
