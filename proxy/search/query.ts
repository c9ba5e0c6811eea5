/**
 * The `q` parameter of GET /v1/search: an optional kind prefix (`mtg:`, `pokemon:`, `lorcana:`,
 * `onepiece:`, `figures:`) and free text, reduced here to folded words. Nothing the user typed is
 * kept except those words, so no character of `q` can reach FTS5 as query syntax (plan.ts quotes
 * each word itself).
 *
 * @example
 *   parseSearchQuery('mtg: Séance*')   // { prefix: 'mtg', scope: 'cardmtg', words: ['seance'] }
 *   parseSearchQuery('name:bolt')      // throws invalid_parameter (unknown prefix)
 */
import { CatalogError } from '../../snapshots/errors.js';
import { GAMES } from '../../snapshots/records.js';
import { scopeToken, searchTokens } from '../../snapshots/search-schema.js';

export const MAX_QUERY_LENGTH = 200;

/** Prefix → the scope token it narrows to (search-schema.ts). Game prefixes mean cards of that game. */
export const SEARCH_PREFIXES: ReadonlyMap<string, string> = new Map<string, string>([
  ...GAMES.map((game): [string, string] => [game, scopeToken('card', game)]),
  ['figures', scopeToken('figure', null)],
]);

export interface SearchQuery {
  /** The prefix given (lowercase), or null: then cards, figures and sets are searched. */
  prefix: string | null;
  /** The scope token the prefix narrows to, or null for everything. */
  scope: string | null;
  /** Folded words in the order typed; may be empty (then nothing matches). */
  words: string[];
}

// "Letters then a colon" at the start is read as an attempted prefix, so `mgt:bolt` is a clear 400
// rather than a silent search for the words "mgt bolt".
const PREFIX = /^([A-Za-z]+):/;

const allowed = () => [...SEARCH_PREFIXES.keys()].map((p) => `${p}:`).join(', ');

function invalidQ(message: string): CatalogError {
  return new CatalogError('invalid_parameter', message, { parameter: 'q' });
}

export function parseSearchQuery(raw: string | undefined): SearchQuery {
  if (raw === undefined) throw invalidQ(`q is required: 1 to ${MAX_QUERY_LENGTH} characters of text, optionally after one of ${allowed()}`);
  const text = raw.trim();
  // Length in code points, so an emoji counts as one character as a user would count it.
  let length = 0;
  for (const _ of text) if (++length > MAX_QUERY_LENGTH) break;
  if (length === 0) throw invalidQ('q must not be empty');
  if (length > MAX_QUERY_LENGTH) throw invalidQ(`q must be at most ${MAX_QUERY_LENGTH} characters`);

  const m = PREFIX.exec(text);
  if (m === null) return { prefix: null, scope: null, words: searchTokens(text) };
  const prefix = m[1].toLowerCase();
  const scope = SEARCH_PREFIXES.get(prefix);
  if (scope === undefined) throw invalidQ(`q starts with the unknown prefix "${m[1]}:"; allowed prefixes are ${allowed()}`);
  return { prefix, scope, words: searchTokens(text.slice(m[0].length)) };
}
