/**
 * The `q` parameter of GET /v1/search: an optional kind prefix (`mtg:`, `pokemon:`, `lorcana:`,
 * `onepiece:`, `figures:`) and free text, reduced here to folded words. Nothing the user typed is
 * kept except those words, so no character of `q` can reach FTS5 as query syntax (plan.ts quotes
 * each word itself).
 *
 * @example
 *   parseSearchQuery('mtg: Séance*')        // { prefix: 'mtg', scope: 'cardmtg', words: ['seance'], warnings: [] }
 *   parseSearchQuery('Kaito: Blackwater')   // { prefix: null, scope: null, words: ['kaito', 'blackwater'], warnings: [...] }
 *   parseSearchQuery('mtg:')                // throws invalid_parameter (no text, like q=)
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
  /** For the envelope: `q` began like a prefix that is not one, so it was searched as text. */
  warnings: string[];
}

// "Letters then a colon" at the start: a prefix when it is one of SEARCH_PREFIXES, else plain text
// (card names have colons, "Kaito: Blackwater", and partners pass user input as typed), with a
// warning so a typo such as `mgt:bolt` is still visible.
const PREFIX = /^([A-Za-z]+):/;

const allowed = () => [...SEARCH_PREFIXES.keys()].map((p) => `${p}:`).join(', ');

function invalidQ(message: string): CatalogError {
  return new CatalogError('invalid_parameter', message, { parameter: 'q' });
}

/** `text` trimmed, or a 400 when nothing is left (`what` names it: "q", "the text after mtg:"). */
function requireText(raw: string, what: string): string {
  const text = raw.trim();
  if (text.length === 0) throw invalidQ(`${what} must not be empty`);
  return text;
}

export function parseSearchQuery(raw: string | undefined): SearchQuery {
  if (raw === undefined) throw invalidQ(`q is required: 1 to ${MAX_QUERY_LENGTH} characters of text, optionally after one of ${allowed()}`);
  // Length in code points, so an emoji counts as one character as a user would count it, and of q as
  // sent (spaces at its ends included), as the OpenAPI document's maxLength counts it.
  let length = 0;
  for (const _ of raw) if (++length > MAX_QUERY_LENGTH) break;
  if (length > MAX_QUERY_LENGTH) throw invalidQ(`q must be at most ${MAX_QUERY_LENGTH} characters`);
  const text = requireText(raw, 'q');

  const m = PREFIX.exec(text);
  if (m === null) return { prefix: null, scope: null, words: searchTokens(text), warnings: [] };
  const prefix = m[1].toLowerCase();
  const scope = SEARCH_PREFIXES.get(prefix);
  if (scope === undefined) {
    const warning = `"${m[0]}" is not a search prefix (${allowed()}), so q was searched as text`;
    return { prefix: null, scope: null, words: searchTokens(text), warnings: [warning] };
  }
  // A prefix alone is an empty query, answered as q= is.
  const rest = requireText(text.slice(m[0].length), `q after the prefix "${m[0]}"`);
  return { prefix, scope, words: searchTokens(rest), warnings: [] };
}
