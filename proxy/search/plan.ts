/**
 * The query planner: turns folded words into relevance tiers, each a query that the index answers in
 * rowid order. Rowid order is popularity order (the builder numbers entries most watched first), so
 * "relevance then popularity" is: tier after tier, each read most popular first with a LIMIT, merged
 * without duplicates. No query sorts its match set; a 2-letter prefix that matches half the catalog
 * costs a LIMITed walk of one doclist. (A plain `ORDER BY bm25` over a 2-letter prefix measured
 * 25 ms p50 / 120 ms p99 at 300k rows on the target machine; see docs/search.md for this design's
 * numbers.)
 *
 * Every word becomes a quoted FTS5 string built here from [\p{L}\p{N}] runs (query.ts), so the user's
 * quotes, `*`, NEAR, AND/OR/NOT, `name:`, `^` and parentheses never reach FTS5 as syntax.
 *
 * @example
 *   planSearch({ prefix: null, scope: null, words: ['lightning', 'bo'], warnings: [] }).tiers.map((t) => t.match)
 *   // exact (b-tree), then: name : ^ "lightning" + "bo"   name : ("lightning" AND "bo")
 *   //   name : ^ "lightning" + "bo"*   name : ("lightning"* AND "bo"*)   {name set_name artist number} : (...)
 */
import { SEARCH_TEXT_COLUMNS } from '../../snapshots/search-schema.js';
import type { SearchQuery } from './query.js';

/** Relevance tiers, most relevant first. Each item of a result says which tier found it. */
export const MATCH_TIERS = ['exact', 'nameStart', 'nameWords', 'nameStartPrefix', 'namePrefix', 'anyField'] as const;
export type MatchTier = (typeof MATCH_TIERS)[number];

export interface FtsTier {
  tier: Exclude<MatchTier, 'exact'>;
  /** The FTS5 MATCH expression (bound as a parameter, never spliced into SQL). */
  match: string;
}

export interface SearchPlan {
  /** search_entries.name_key equal to the words: the `exact` tier; null when there are no words. */
  exactKey: string | null;
  scope: string | null;
  /** FTS tiers in relevance order, duplicates (same expression) removed. Empty when there are no words. */
  tiers: FtsTier[];
  /** The widest expression: every result of every tier matches it, so it counts the total. */
  all: string | null;
}

/**
 * Phrase tiers ("name starts with the query") only for queries of at most this many words. A long
 * phrase of common words makes FTS5 check positions in every row holding them (a 56-word
 * "the of the of ..." took ~35 ms per phrase tier at 100k rows); no real name starts with more words
 * than this, and skipping a tier changes order only, never which items match.
 */
export const MAX_PHRASE_WORDS = 10;

const quote = (word: string) => `"${word.replace(/"/g, '""')}"`;

// Type-ahead starts at 2 characters; a 1-character prefix would match most of the catalog and is
// never what a user means, so a 1-character word matches whole words only.
const isPrefixable = (word: string) => {
  let n = 0;
  for (const _ of word) if (++n >= 2) return true;
  return false;
};
const asPrefix = (word: string) => (isPrefixable(word) ? `${quote(word)}*` : quote(word));

export function planSearch(query: SearchQuery): SearchPlan {
  const { words, scope } = query;
  if (words.length === 0) return { exactKey: null, scope, tiers: [], all: null };

  const distinct = [...new Set(words)];
  const last = words.length - 1;
  const wholeWords = distinct.map(quote).join(' AND ');
  const prefixWords = distinct.map(asPrefix).join(' AND ');
  const phrase = words.map(quote).join(' + ');
  const phrasePrefix = words.map((w, i) => (i === last ? asPrefix(w) : quote(w))).join(' + ');
  const anyColumn = `{${SEARCH_TEXT_COLUMNS.join(' ')}}`;

  const scoped = (expr: string) => (scope === null ? expr : `scope : ${quote(scope)} AND (${expr})`);
  const phrases = words.length <= MAX_PHRASE_WORDS;
  const candidates: FtsTier[] = [
    ...(phrases ? [{ tier: 'nameStart' as const, match: scoped(`name : ^ ${phrase}`) }] : []),
    { tier: 'nameWords', match: scoped(`name : (${wholeWords})`) },
    ...(phrases ? [{ tier: 'nameStartPrefix' as const, match: scoped(`name : ^ ${phrasePrefix}`) }] : []),
    { tier: 'namePrefix', match: scoped(`name : (${prefixWords})`) },
    { tier: 'anyField', match: scoped(`${anyColumn} : (${prefixWords})`) },
  ];
  const seen = new Set<string>();
  const tiers = candidates.filter((t) => (seen.has(t.match) ? false : (seen.add(t.match), true)));
  return { exactKey: words.join(' '), scope, tiers, all: tiers[tiers.length - 1].match };
}
