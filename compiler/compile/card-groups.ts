/**
 * The catalog's cards grouped as the aggregates read them: each set's cards in its pages' order, each
 * artist's (merged spellings, as groupByArtist makes them) in theirs, each oracle concept's printings.
 * They depend on the catalog files and the code alone, never on prices, so a compile that took the
 * previous snapshot's stored catalog (stored-catalog.ts) and has its code takes them from the
 * previous snapshot's `card-groups.state` too: at a million cards ordering every set and grouping and
 * ordering every artist was about 3.5 s of the main thread in every incremental compile after a price
 * change (docs/benchmarks.md, "Incremental compile: the card groups kept").
 *
 * It is compiler state like the stored catalog: never published, kept by the current snapshot only
 * (dropOlderCompilerState), trusted only when its header names the same catalog files hash, the same
 * compiler code and its frames' SHA-1 matches (framed-file.ts); anything else and the groups are made
 * again. Positions are places in the catalog's card order (source/card-table.ts), the same for the
 * same catalog files and code.
 *
 * @example
 *   const groups = readCardGroups(join(previous.dir, CARD_GROUPS_FILE), expect) ?? cardGroups(columns, sets);
 *   keepCardGroups(join(dir, CARD_GROUPS_FILE), groups, expect, takenFrom);
 */
import { copyFileSync, linkSync } from 'node:fs';
import type { CardColumns } from '../source/card-table.js';
import type { SetRecord } from '../../snapshots/records.js';
import { orderArtistPositions, orderSetPositions } from '../render/column-order.js';
import { groupByArtist } from '../render/artist-pages.js';
import { positionsBySet, setMapKey } from '../render/summaries.js';
import { createFrameWriter, readFrames } from './framed-file.js';

/** The file in a snapshot folder. */
export const CARD_GROUPS_FILE = 'card-groups.state';

const FORMAT = 'card-groups/1';

export interface CardGroups {
  /** By setMapKey: the set's cards in page order (orderSetPositions); a set without cards is absent. */
  sets: Map<string, number[]>;
  /** By artist slug, in slug order: the display name and the cards in page order (orderArtistPositions). */
  artists: Map<string, { name: string; cards: number[] }>;
  /** By oracle id, in the order of their first printing: the printings in the catalog's order. */
  oracles: Map<string, number[]>;
}

/** What a stored file must have been written for: the catalog files' hash and the compiler's code. */
export interface CardGroupsFor {
  files: string;
  code: string;
}

/** The groups made from the columns: what the aggregates did on every compile before. */
export function cardGroups(cards: CardColumns, sets: readonly SetRecord[]): CardGroups {
  const bySet = positionsBySet(cards);
  const oracles = new Map<string, number[]>();
  for (let i = 0; i < cards.length; i++) {
    const oracleId = cards.oracleId(i);
    if (oracleId === null) continue;
    let o = oracles.get(oracleId);
    if (!o) oracles.set(oracleId, (o = []));
    o.push(i);
  }
  const ordered = new Map<string, number[]>();
  // In the catalog's set order, so the file is the same for the same catalog.
  for (const set of sets) {
    const key = setMapKey(set.game, set.code);
    const positions = bySet.get(key);
    if (positions !== undefined) ordered.set(key, orderSetPositions(cards, positions));
  }
  const artists = new Map<string, { name: string; cards: number[] }>();
  for (const [slug, group] of groupByArtist(positions(cards.length), (i) => cards.artist(i))) {
    artists.set(slug, { name: group.name, cards: orderArtistPositions(cards, group.cards) });
  }
  return { sets: ordered, artists, oracles };
}

/**
 * The groups stored at `path` for `expect`, checked against the catalog's `cards` count (every
 * position a card's); null when the file is missing, written for other files or code, or damaged.
 */
export function readCardGroups(path: string, expect: CardGroupsFor, cards: number): CardGroups | null {
  const frames = readFrames(path, (h) => h.format === FORMAT && h.files === expect.files && h.code === expect.code);
  if (frames === null || frames.length !== 3) return null;
  const [sets, artists, oracles] = frames as [Keyed, Keyed & { names: string[] }, Keyed];
  const take = (k: Keyed): Map<string, number[]> | null => {
    if (!Array.isArray(k?.keys) || !(k.ends instanceof Int32Array) || !(k.positions instanceof Int32Array) || k.ends.length !== k.keys.length) return null;
    const map = new Map<string, number[]>();
    let from = 0;
    for (let g = 0; g < k.keys.length; g++) {
      const to = k.ends[g];
      if (to < from || to > k.positions.length) return null;
      const list = Array.from(k.positions.subarray(from, to));
      if (list.some((p) => p < 0 || p >= cards)) return null;
      map.set(k.keys[g], list);
      from = to;
    }
    return from === k.positions.length ? map : null;
  };
  const setMap = take(sets);
  const artistMap = take(artists);
  const oracleMap = take(oracles);
  if (setMap === null || artistMap === null || oracleMap === null || !Array.isArray(artists.names) || artists.names.length !== artistMap.size) return null;
  const named = new Map<string, { name: string; cards: number[] }>();
  let g = 0;
  for (const [slug, list] of artistMap) named.set(slug, { name: artists.names[g++], cards: list });
  return { sets: setMap, artists: named, oracles: oracleMap };
}

/**
 * Puts the groups in the new snapshot's folder at `path`: the previous snapshot's file linked when
 * they were read from it (`takenFrom`), else written through a temporary file.
 */
export function keepCardGroups(path: string, groups: CardGroups, expect: CardGroupsFor, takenFrom: string | null): void {
  if (takenFrom !== null) {
    try {
      linkSync(takenFrom, path);
    } catch {
      copyFileSync(takenFrom, path);
    }
    return;
  }
  const writer = createFrameWriter(path);
  try {
    writer.add(keyed(groups.sets));
    writer.add({ ...keyed(new Map([...groups.artists].map(([slug, a]) => [slug, a.cards]))), names: [...groups.artists.values()].map((a) => a.name) });
    writer.add(keyed(groups.oracles));
    writer.finish({ format: FORMAT, files: expect.files, code: expect.code });
  } catch (err) {
    writer.abort();
    throw err;
  }
}

/** A map of position lists as one typed array (v8 writes its bytes as they are), its keys and each list's end. */
interface Keyed {
  keys: string[];
  ends: Int32Array;
  positions: Int32Array;
}

function keyed(map: ReadonlyMap<string, readonly number[]>): Keyed {
  let total = 0;
  for (const list of map.values()) total += list.length;
  const positions = new Int32Array(total);
  const ends = new Int32Array(map.size);
  let at = 0;
  let g = 0;
  for (const list of map.values()) {
    positions.set(list, at);
    at += list.length;
    ends[g++] = at;
  }
  return { keys: [...map.keys()], ends, positions };
}

/** 0 .. n-1. */
function* positions(n: number): Generator<number> {
  for (let i = 0; i < n; i++) yield i;
}
