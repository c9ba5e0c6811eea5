/**
 * The search index both halves share: the compiler writes it (compiler/search/), the proxy reads it
 * (proxy/search/). One SQLite file per snapshot (SEARCH_DB_FILE in keys.ts) holding:
 *
 * - `search_entries`: one row per searchable item, `rank` = its position in popularity order
 *   (1 = most watched). The rank is also the FTS rowid, so an FTS query that reads matches in rowid
 *   order reads them most popular first and can stop at its LIMIT without sorting the match set.
 * - `search_fts`: a contentless FTS5 table over the folded name, set name, artist and number, plus a
 *   `scope` column holding one token naming the kind (and game) so `mtg:` is an index lookup too.
 * - `search_meta`: key/value facts about the index (asOf).
 *
 * Text is folded here, in JS, before FTS5 sees it (and queries are folded the same way), so the
 * index and the queries agree on tokens whatever the tokenizer's own Unicode tables say.
 *
 * @example
 *   foldText('Séance at Dusk')          // 'seance at dusk'
 *   searchTokens("Urza's Saga, Vol.2")  // ['urzas', 'saga', 'vol', '2']
 *   scopeToken('card', 'mtg')           // 'cardmtg'
 */
import type { Game } from './records.js';

/** Bumped whenever the tables or the folding change; the proxy refuses an index of another version. */
export const SEARCH_SCHEMA_VERSION = 1;

export const SEARCH_KINDS = ['card', 'figure', 'set'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** FTS5 columns the user's words are matched against (the `scope` column is never one of them). */
export const SEARCH_TEXT_COLUMNS = ['name', 'set_name', 'artist', 'number'] as const;

export const SEARCH_DDL: readonly string[] = [
  `CREATE TABLE search_entries (
     rank INTEGER PRIMARY KEY,
     kind TEXT NOT NULL,
     id TEXT NOT NULL,
     game TEXT,
     scope TEXT NOT NULL,
     popularity REAL NOT NULL,
     name_key TEXT NOT NULL,
     summary TEXT NOT NULL
   )`,
  // Contentless (content=''): results are read from search_entries by rowid, so FTS keeps only its
  // index. detail=full keeps token positions for `^` (name starts with) and phrases; columnsize=0
  // because ranking does not use bm25 (see proxy/search/plan.ts for why). prefix='2 3' makes 2- and
  // 3-character type-ahead prefixes a single term lookup instead of a merge of every matching term.
  `CREATE VIRTUAL TABLE search_fts USING fts5(
     name, set_name, artist, number, scope,
     content='', columnsize=0, detail=full, prefix='2 3',
     tokenize="unicode61 remove_diacritics 2"
   )`,
  `CREATE TABLE search_meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID`,
];

/**
 * The entries by kind and id: the compile's update of a copy of the previous index finds the entries
 * of the re-rendered entities by it, and counts each kind (compiler/compile/search-update.ts); at a
 * million entries both were scans of the whole table, about 2 s. No query of the proxy filters on
 * kind or id, so its plans do not change.
 */
export const SEARCH_ENTITY_INDEX = `CREATE INDEX IF NOT EXISTS search_entries_entity ON search_entries(kind, id)`;

/** Created after the bulk load (building an index once is cheaper than maintaining it per row). */
export const SEARCH_POST_LOAD_DDL: readonly string[] = [
  `CREATE INDEX search_entries_name ON search_entries(name_key)`,
  SEARCH_ENTITY_INDEX,
];

/** Keys of search_meta. */
export const SEARCH_META_AS_OF = 'asOf';

/**
 * Folds text for matching: compatibility decomposition (ligatures, full-width forms), lowercase,
 * combining marks removed (é → e), apostrophes dropped so "Urza's" and "urzas" are one word, and
 * Greek final sigma made ordinary sigma (lowercasing picks one or the other by position).
 */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/\p{M}+/gu, '')
    .replace(/['\u2018\u2019\u02BC\uFF07]/g, '')
    .replace(/\u03C2/g, '\u03C3');
}

const WORD = /[\p{L}\p{N}]+/gu;

/** The words of a text after folding: runs of letters and digits; everything else separates. */
export function searchTokens(text: string): string[] {
  return foldText(text).match(WORD) ?? [];
}

/** The text stored in an FTS column: the tokens joined by single spaces. */
export function indexedText(text: string | null): string {
  return text === null ? '' : searchTokens(text).join(' ');
}

/**
 * The single token in the `scope` column. Cards and sets carry their game so a game prefix narrows
 * with one term; figures have no game.
 */
export function scopeToken(kind: SearchKind, game: Game | null): string {
  return kind === 'figure' || game === null ? kind : `${kind}${game}`;
}
