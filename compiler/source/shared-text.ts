/**
 * One string per distinct value of the text fields that repeat across many records and are often
 * longer than 10 characters: a card's artist and rarity, a figure's series and rarity. V8's
 * JSON.parse already makes one string of each value of up to 10 characters (game, set code, dates:
 * measured, pooling those too saved nothing more), but a new one for every longer value, and never
 * merges equal strings afterwards; at a million cards the artist names alone were a million strings
 * held for the whole compile. Fields with mostly distinct values (ids, names, image URLs) are left
 * alone: a pool entry would cost more than the string it saves.
 *
 * @example
 *   const share = createTextPool();
 *   share('cards', record);   // record.artist is now the pool's one 'Wren Dubois' string
 */
import type { SourceKind } from '../../snapshots/records.js';

const SHARED_FIELDS: Partial<Record<SourceKind, readonly string[]>> = {
  cards: ['artist', 'rarity'],
  figures: ['seriesId', 'rarity'],
};

/** Replaces each shared field's string of a validated record with the pool's equal one. */
export type TextPool = (kind: SourceKind, record: Record<string, unknown>) => void;

export function createTextPool(): TextPool {
  const pool = new Map<string, string>();
  return (kind, record) => {
    const fields = SHARED_FIELDS[kind];
    if (fields === undefined) return;
    for (const field of fields) {
      const value = record[field];
      if (typeof value !== 'string') continue;
      const shared = pool.get(value);
      if (shared === undefined) pool.set(value, value);
      else record[field] = shared;
    }
  };
}
