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
import { copyFileSync, existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { stableJson } from '../../snapshots/codec.js';
import { SEARCH_META_AS_OF, SEARCH_SCHEMA_VERSION } from '../../snapshots/search-schema.js';
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
  if (!(await previous.place?.(path))) copyFileSync(previous.path, path);
  const db = new Database(path);
  let done = false;
  try {
    if (db.pragma('user_version', { simple: true }) !== SEARCH_SCHEMA_VERSION) return null;
    const counts: Record<string, number> = { card: catalog.cards.size, figure: catalog.figures.size, set: catalog.sets.length };
    const have = db.prepare('SELECT kind, count(*) AS n FROM search_entries GROUP BY kind').all() as { kind: string; n: number }[];
    if (have.length !== Object.values(counts).filter((n) => n > 0).length || have.some((k) => counts[k.kind] !== k.n)) return null;
    // Rows by (kind, id): the table is keyed by rank and has no index on the id. The wanted entries go
    // into a temporary table joined in SQL: one pass over the rows without a string per row made here
    // (at a million entries the pass in JavaScript took about 2 s of the main thread).
    db.exec('CREATE TEMP TABLE wanted (kind TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (kind, id)) WITHOUT ROWID');
    const want = db.prepare('INSERT OR IGNORE INTO temp.wanted (kind, id) VALUES (?, ?)');
    let wanted = 0;
    db.transaction(() => {
      for (const id of rendered.card) wanted += want.run('card', id).changes;
      for (const id of rendered.figure) wanted += want.run('figure', id).changes;
    })();
    const rankOf = new Map<string, number>();
    for (const [rank, kind, id] of db.prepare('SELECT rank, kind, id FROM search_entries JOIN temp.wanted USING (kind, id)').raw().iterate() as Iterable<[number, string, string]>) {
      rankOf.set(`${kind}\u0000${id}`, rank);
    }
    if (rankOf.size !== wanted) return null;
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    const update = db.prepare('UPDATE search_entries SET summary = ? WHERE rank = ?');
    db.transaction(() => {
      for (const id of rendered.card) update.run(stableJson(cardEntry(catalog, prices, catalog.cards.get(id)!).summary), rankOf.get(`card\u0000${id}`));
      for (const id of rendered.figure) update.run(stableJson(figureEntry(catalog, prices, catalog.figures.get(id)!).summary), rankOf.get(`figure\u0000${id}`));
      db.prepare('INSERT OR REPLACE INTO search_meta(key, value) VALUES (?, ?)').run(SEARCH_META_AS_OF, normalizeAsOf(catalog.meta.asOf ?? null));
    })();
    db.pragma('journal_mode = DELETE');
    done = true;
    return { updated: wanted, finish: async () => undefined, abort: async () => remove() };
  } finally {
    db.close();
    if (!done) remove();
  }
}
