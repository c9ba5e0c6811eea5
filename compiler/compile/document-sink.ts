/**
 * Writes the aggregate documents (oracle, lists, feeds, summary) rendered on the main thread. The
 * input fingerprint of such a document is the hash of its stable JSON: when it equals the previous
 * snapshot's, the object is re-used (hard link, made by the reuse queue's thread) instead of
 * compressed and written again.
 *
 * A document that depends on a few cards only (an oracle concept: its printings) can skip even the
 * rendering: `putFromCards` fingerprints it from its cards' own input fingerprints (record, set,
 * raw price line, FX quotes, renderer code), which the entity phase has recorded, and renders it
 * only when that differs from the previous snapshot's. At 100,000 cards that is 18,850 oracle
 * documents, of which a 1% price change touches a few hundred.
 */
import { fingerprint, gzip, sha256Hex, stableJson } from '../../snapshots/codec.js';
import { cardKey } from '../../snapshots/keys.js';
import type { ObjectTable } from './object-table.js';
import type { PackOutput } from './pack-output.js';
import type { PreviousSnapshot } from './previous.js';

export interface DocumentSink {
  put(key: string, doc: unknown): void;
  /**
   * `render()` at `key` unless the cards it is made from (and nothing else) are the same as for the
   * previous snapshot's object, which is then re-used without rendering. `cardIds` in any order.
   */
  putFromCards(key: string, cardIds: readonly string[], render: () => unknown): void;
}

export function createDocumentSink(out: PackOutput, table: ObjectTable, previous: PreviousSnapshot | null, codeHash: string): DocumentSink {
  /** Re-uses the previous object at `key` when its input was `input`; false when it must be written. */
  const reused = (key: string, input: string): boolean => {
    const before = previous?.objects.get(key);
    if (!previous || !before || before.input !== input) return false;
    table.add({ key, size: before.size, sha256: before.sha256, input, at: out.reuse(key, before) });
    return true;
  };
  const write = (key: string, json: string, input: string) => {
    const bytes = gzip(json);
    table.add({ key, size: bytes.length, sha256: sha256Hex(bytes), input, at: out.write(bytes) });
  };
  return {
    put(key, doc) {
      const json = stableJson(doc);
      const input = fingerprint(codeHash, json);
      if (!reused(key, input)) write(key, json, input);
    },
    putFromCards(key, cardIds, render) {
      // Every range object of a card carries the card's input fingerprint; the 30d one stands for all.
      // The ids are sorted so the fingerprint does not depend on the catalog's order.
      const parts: string[] = [codeHash, 'cards:'];
      for (const id of [...cardIds].sort()) {
        const input = table.inputOf(cardKey(id, '30d'));
        if (input === undefined || input === null) throw new Error(`${key} is made from card ${id}, which has no recorded input`);
        parts.push(id, input);
      }
      const input = fingerprint(...parts);
      if (!reused(key, input)) write(key, stableJson(render()), input);
    },
  };
}

