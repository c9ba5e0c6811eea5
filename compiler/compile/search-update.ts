/**
 * The search index of an incremental compile in which only prices changed: a copy of the previous
 * snapshot's `search.sqlite` with the summaries of the re-rendered cards and figures replaced.
 *
 * A price reaches an entry only through its summary (marketCents, priceDate, priceSynthetic): the
 * rank is the position by watchers, and the indexed text is the name, set or series name, artist and
 * number, all from the records. So when no record changed (every re-rendered entity has the record
 * part of its previous input, entity-phase.ts), no entity was added or removed (the counts by kind
 * match and none is new) and the set records with their card counts are the same (the `sets` bulk
 * file's input), every row but the re-rendered entities' summaries is already what a full build
 * would write, and the FTS index (whose rows a contentless table cannot even update without the old
 * text) stays as it is. Anything else returns null and the index is built whole.
 *
 * The file is a copy, not the previous one opened for writing: the previous snapshot stays intact.
 *
 * @example
 *   const done = await updateSearchIndexCopy(join(dir, 'search.sqlite'), { path: prevPath, sameSets: true }, catalog, prices);
 *   done?.updated  // 1003
 */
import { constants, copyFileSync, existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { stableJson } from '../../snapshots/codec.js';
import { SEARCH_ENTITY_INDEX, SEARCH_KINDS, SEARCH_META_AS_OF, SEARCH_SCHEMA_VERSION, type SearchKind } from '../../snapshots/search-schema.js';
import { normalizeAsOf, removeIndexFiles } from '../search/index-builder.js';
import type { LoadedCatalog } from '../source/index.js';
import type { PriceSummaries } from './entity-phase.js';
import { cardEntry, figureEntry } from './search-entries.js';

export interface PreviousSearchIndex {
  /** The previous snapshot's search.sqlite. */
  path: string;
  /** True when the set records with their card counts equal the previous snapshot's. */
  sameSets: boolean;
  /** Moves a copy of `path` made in the background to the given path (prefetch.ts); false when there is none. */
  place?: (to: string) => Promise<boolean>;
}

export interface UpdatedSearchIndex {
  /** Entries whose summary was replaced. */
  updated: number;
  finish(): Promise<void>;
  abort(): Promise<void>;
}

export async function updateSearchIndexCopy(path: string, previous: PreviousSearchIndex, catalog: LoadedCatalog, prices: PriceSummaries): Promise<UpdatedSearchIndex | null> {
  const rendered = prices.rendered;
  if (!rendered.onlyPrices || !previous.sameSets || !existsSync(previous.path)) return null;
  const remove = () => removeIndexFiles(path);
  // A reflink where the filesystem has them (prefetch.ts), else an ordinary copy.
  if (!(await previous.place?.(path))) copyFileSync(previous.path, path, constants.COPYFILE_FICLONE);
  const db = new Database(path);
  let done = false;
  try {
    if (db.pragma('user_version', { simple: true }) !== SEARCH_SCHEMA_VERSION) return null;
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    // An index built before the entity index existed gets it here, once: every copy after has it.
    db.exec(SEARCH_ENTITY_INDEX);
    // Each kind counted on the entity index, and the rows in all (so no row of another kind).
    const counts: Record<SearchKind, number> = { card: catalog.cards.size, figure: catalog.figures.size, set: catalog.sets.length };
    const countOf = db.prepare('SELECT count(*) FROM search_entries WHERE kind = ?').pluck();
    const total = db.prepare('SELECT count(*) FROM search_entries').pluck().get() as number;
    if (SEARCH_KINDS.some((k) => countOf.get(k) !== counts[k]) || total !== counts.card + counts.figure + counts.set) return null;
    // Each re-rendered entity's row found on the entity index (a point look-up each: at a million
    // entries a pass over the rows in JavaScript took about 2 s of the main thread, a join in SQL
    // without the index 1-2 s of scanning, with it half a second, scanning the index).
    const rankOf = db.prepare('SELECT rank FROM search_entries WHERE kind = ? AND id = ?').pluck();
    const ranks = { card: rendered.card.map((id) => rankOf.get('card', id) as number | undefined), figure: rendered.figure.map((id) => rankOf.get('figure', id) as number | undefined) };
    if (ranks.card.includes(undefined) || ranks.figure.includes(undefined)) return null;
    const update = db.prepare('UPDATE search_entries SET summary = ? WHERE rank = ?');
    db.transaction(() => {
      rendered.card.forEach((id, i) => update.run(stableJson(cardEntry(catalog, prices, catalog.cards.get(id)!).summary), ranks.card[i]));
      rendered.figure.forEach((id, i) => update.run(stableJson(figureEntry(catalog, prices, catalog.figures.get(id)!).summary), ranks.figure[i]));
      db.prepare('INSERT OR REPLACE INTO search_meta(key, value) VALUES (?, ?)').run(SEARCH_META_AS_OF, normalizeAsOf(catalog.meta.asOf ?? null));
    })();
    db.pragma('journal_mode = DELETE');
    done = true;
    return { updated: rendered.card.length + rendered.figure.length, finish: async () => undefined, abort: async () => remove() };
  } finally {
    db.close();
    if (!done) remove();
  }
}
