/** Parameter components (API.md §1, §3; docs/api.md "Path parameters" and "Query parameters"). */
import { ID_PATTERN, SLUG_PATTERN } from '../../snapshots/ids.js';
import { GAMES, RANGES } from '../../snapshots/records.js';
import { MAX_LIMIT, MAX_PAGE } from '../http/params.js';
import { DEFAULT_RANGE } from '../routes/cards.js';
import { SNAPSHOT_ID } from './headers.js';
import { instantSchema, tenantSchema } from './schemas-admin.js';
import type { Schema } from './schema-kit.js';

const path = (name: string, description: string, schema: Schema) => ({ name, in: 'path', required: true, description, schema });
const header = (name: string, description: string, schema: Schema) => ({ name, in: 'header', required: false, description, schema });
const query = (name: string, description: string, schema: Schema, required = false) => ({ name, in: 'query', required, description, schema });
const limit = (defaultLimit: number) =>
  query('limit', `Items per page, default ${defaultLimit}: any integer 1 or more; above ${MAX_LIMIT} is capped at ${MAX_LIMIT} with a warning. 0, negatives, decimals or text are 400.`, { type: 'integer', minimum: 1, default: defaultLimit });

export function parameterComponents(): Record<string, Schema> {
  return {
    Id: path('id', 'An id: letters, digits, `.`, `_`, `-`, starting with a letter or digit; not `.` or `..`.', { type: 'string', pattern: ID_PATTERN.source, maxLength: 128 }),
    Game: path('game', 'The game of the set.', { type: 'string', enum: [...GAMES] }),
    SetCode: path('setCode', 'Set code, matched case-insensitively (`WAS` = `was`).', { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9-]{0,63}$' }),
    ArtistSlug: path('slug', 'Artist slug, as in a card\'s `artist.slug`.', { type: 'string', pattern: SLUG_PATTERN.source }),
    Handle: path('handle', 'The user\'s public handle.', { type: 'string', pattern: SLUG_PATTERN.source }),
    KeyId: path('id', 'A key ID (the 8 characters after `rxk_`).', { type: 'string', pattern: '^[0-9A-Za-z]{8}$' }),
    Range: query('range', 'The price-history range of the card document.', { type: 'string', enum: [...RANGES], default: DEFAULT_RANGE }),
    GameFilter: query('game', 'Only this game; `all` or absent: every game.', { type: 'string', enum: [...GAMES, 'all'], default: 'all' }),
    Page: query('page', `1-based page, at most ${MAX_PAGE} (the largest exact number); a page past the end is 200 with \`data: []\`.`, { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 }),
    Limit20: limit(20),
    Limit100: limit(100),
    SearchQuery: query('q', '1-200 characters: an optional prefix `mtg:`, `pokemon:`, `lorcana:`, `onepiece:` or `figures:` (then followed by some text), then free text matched as words and word prefixes (docs/search.md). Nothing in it is query syntax: any other `word:` at the start is searched as text, with a warning. Spaces at its ends are dropped; only spaces is 400.', { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' }, true),
    Since: query('since', 'Rows at or after this instant: `YYYY-MM-DD` (midnight UTC) or an ISO timestamp with a zone (`2026-11-20T10:00:00Z`); a day that does not exist (2026-02-30) is 400.', instantSchema('A date or an ISO timestamp with a zone.')),
    Until: query('until', 'Rows before this instant, in the form of `since` (must be after `since`).', instantSchema('A date or an ISO timestamp with a zone.')),
    Snapshot: query('snapshot', 'Read this kept snapshot instead of the current one, so a sync reads one snapshot throughout; one no longer kept is 410 `gone`.', { type: 'string', pattern: `^${SNAPSHOT_ID}$` }),
    SinceSnapshot: query('since', 'The snapshot to compare with (a kept one; one no longer kept is 410 `gone`: sync from the whole manifest then).', { type: 'string', pattern: `^${SNAPSHOT_ID}$` }, true),
    ObjectKey: path('key', 'A manifest key: `v1/` then segments that are ids, ending `.json.gz`; at most 512 characters. Its slashes may be sent as they are or percent-encoded (`v1%2Fcards%2F...`, as generated clients send a path parameter): the key is decoded once.', { type: 'string', pattern: '^v1/([A-Za-z0-9][A-Za-z0-9._-]*/)*[A-Za-z0-9][A-Za-z0-9._-]*\\.json\\.gz$', maxLength: 512, examples: ['v1/cards/OP01-001/30d.json.gz'] }),
    BulkName: path('name', 'A bulk file name as `GET /v1/bulk` lists it (`cards`, `figures`, `oracle`, `sets`, `changes`).', { type: 'string', pattern: SLUG_PATTERN.source }),
    RangeHeader: header('Range', 'One range, `bytes=<first>-[<last>]` or `bytes=-<suffix length>`: 206 with those bytes; past the end: 416. Several ranges or another unit: the whole file.', { type: 'string', examples: ['bytes=1048576-'] }),
    IfRange: header('If-Range', 'The ETag of the file a download started with: the range applies only while it is still that file (else 200 with the whole file).', { type: 'string' }),
    Tenant: query('tenant', 'Only the keys of this tenant.', tenantSchema()),
  };
}

