/**
 * The parameters of the partner routes (API.md §1, §3; docs/api.md "Path parameters" and "Query
 * parameters"), each declared once with its text for the document and its check. The checks run
 * before any store is touched, so a value that fails them never becomes an object key.
 */
import { DISCOVER_FEEDS, SNAPSHOT_FILE_NAME, isObjectKey, isSnapshotFileName } from '../../snapshots/keys.js';
import { CatalogError } from '../../snapshots/errors.js';
import { ID_PATTERN, SLUG_PATTERN } from '../../snapshots/ids.js';
import { GAMES, RANGES } from '../../snapshots/records.js';
import { MAX_LIMIT, MAX_PAGE } from '../http/params.js';
import { SNAPSHOT_ID } from '../openapi/headers.js';
import { parseSearchQuery } from '../search/query.js';
import { requireGame, requireId, requireOneOf, requireSetCode, requireSlug } from '../serve-object/validate.js';
import { requireSnapshotId } from '../snapshot-files/snapshot-files.js';
import { isPackHash } from '../../snapshots/packs/pack-reader.js';
import { isKeyId } from '../keys/format.js';
import { parseInstant, parseTenant } from '../keys/validate.js';
import { instantSchema, tenantSchema } from '../openapi/schemas-admin.js';
import { pathParam, queryParam, type DocumentedParam } from './param.js';
import { VIEWS, parseFields } from '../serve-object/selection.js';

export const DEFAULT_RANGE = '30d';

const present = (raw: string | undefined | null): string | undefined => raw ?? undefined;

export const Id = pathParam({
  component: 'Id', name: 'id',
  description: 'An id: letters, digits, `.`, `_`, `-`, starting with a letter or digit; not `.` or `..`.',
  schema: { type: 'string', pattern: ID_PATTERN.source, maxLength: 128 },
  check: (raw) => requireId(present(raw), 'id'),
});

export const Game = pathParam({
  component: 'Game', name: 'game', description: 'The game of the set.', schema: { type: 'string', enum: [...GAMES] },
  check: (raw) => requireGame(present(raw), 'game'),
});

export const SetCode = pathParam({
  component: 'SetCode', name: 'setCode', description: 'Set code, matched case-insensitively (`WAS` = `was`).',
  schema: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9-]{0,63}$' },
  check: (raw) => requireSetCode(present(raw), 'setCode'),
});

export const ArtistSlug = pathParam({
  component: 'ArtistSlug', name: 'slug', description: 'Artist slug, as in a card\'s `artist.slug`.',
  schema: { type: 'string', pattern: SLUG_PATTERN.source },
  check: (raw) => requireSlug(present(raw), 'slug'),
});

export const Handle = pathParam({
  component: 'Handle', name: 'handle', description: 'The user\'s public handle.',
  schema: { type: 'string', pattern: SLUG_PATTERN.source },
  check: (raw) => requireSlug(present(raw), 'handle'),
});

/** Each feed is documented as a route of its own (route.ts `perValue`), so this one has no component. */
export const Feed = pathParam({
  name: 'feed', description: 'The discover feed.', schema: { type: 'string', enum: [...DISCOVER_FEEDS] },
  check: (raw) => requireOneOf(present(raw), DISCOVER_FEEDS, 'feed'),
});

export const Range = queryParam({
  component: 'Range', name: 'range', description: 'The price-history range of the card document.',
  schema: { type: 'string', enum: [...RANGES], default: DEFAULT_RANGE },
  check: (raw) => requireOneOf(raw ?? DEFAULT_RANGE, RANGES, 'range'),
});

/** The optional `game` filter of the ranked feeds: absent means every game. */
export const GameFilter = queryParam({
  component: 'GameFilter', name: 'game', description: 'Only this game; `all` or absent: every game.',
  schema: { type: 'string', enum: [...GAMES, 'all'], default: 'all' },
  check: (raw) => (raw === undefined || raw === null ? 'all' : requireOneOf(raw, [...GAMES, 'all'] as const, 'game')),
});

export const SearchQuery = queryParam({
  component: 'SearchQuery', name: 'q', required: true,
  description: '1-200 characters: an optional prefix `mtg:`, `pokemon:`, `lorcana:`, `onepiece:` or `figures:` (then followed by some text), then free text matched as words and word prefixes (docs/search.md). Nothing in it is query syntax: any other `word:` at the start is searched as text, with a warning. Spaces at its ends are dropped; only spaces is 400.',
  schema: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
  check: (raw) => parseSearchQuery(present(raw)),
});

/** Checked when the route pins its snapshot (it may be 410 `gone` then); here only its form. */
export const Snapshot = queryParam({
  component: 'Snapshot', name: 'snapshot',
  description: 'Read this kept snapshot instead of the current one (an as-of read; a mirror pins one snapshot for its whole sync): the answer, its ETag and X-Snapshot-Id are those it had when that snapshot was current. `GET /v1/snapshots` lists the kept ones; one no longer kept is 410 `gone`.',
  schema: { type: 'string', pattern: `^${SNAPSHOT_ID}$` },
  check: (raw) => (raw === undefined || raw === null ? undefined : requireSnapshotId(raw, 'snapshot')),
});

/** Checked here for form; against the list's item fields by the answer (serve-object/selection.ts). */
/** No component: each list's operation states it with the names its items have (openapi/table-paths.ts). */
export const Fields = queryParam({
  name: 'fields',
  description: `Only these fields of each item, comma-separated (\`fields=id,name,marketCents\`); the envelope and the page block stay. A name the list's items do not have is 400 naming it and listing the valid ones; an item without a selected field (a figure's \`number\`) leaves it out. The answer has its own ETag; the names each list takes are in its operation.`,
  schema: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9]*(,[A-Za-z][A-Za-z0-9]*)*$', examples: ['id,name,marketCents'] },
  check: (raw) => (raw === undefined || raw === null ? undefined : parseFields(raw)),
});

export const View = queryParam({
  name: 'view',
  description: '`ids`: each item is `{"id": …}` alone, the envelope and the page block stay; 400 for a list whose items have no id, or with `fields`. The answer has its own ETag.',
  schema: { type: 'string', enum: [...VIEWS], default: 'full' },
  check: (raw) => (raw === undefined || raw === null ? 'full' : requireOneOf(raw, VIEWS, 'view')),
});

export const SinceSnapshot = queryParam({
  component: 'SinceSnapshot', name: 'since', required: true,
  description: 'The snapshot to compare with (a kept one; one no longer kept is 410 `gone`: sync from the whole manifest then).',
  schema: { type: 'string', pattern: `^${SNAPSHOT_ID}$` },
  check: (raw) => requireSnapshotId(present(raw), 'since'),
});

export const ObjectKey = pathParam({
  component: 'ObjectKey', name: 'key', rest: true,
  description: 'A manifest key: `v1/` then segments that are ids, ending `.json.gz`; at most 512 characters. Its slashes may be sent as they are or percent-encoded (`v1%2Fcards%2F...`, as generated clients send a path parameter): the key is decoded once.',
  schema: { type: 'string', pattern: '^v1/([A-Za-z0-9][A-Za-z0-9._-]*/)*[A-Za-z0-9][A-Za-z0-9._-]*\\.json\\.gz$', maxLength: 512, examples: ['v1/cards/OP01-001/30d.json.gz'] },
  // Decoded once, so `%2E%2E` and `%252F` are refused like `..`.
  check: (raw) => {
    if (raw === undefined || raw === null || !isObjectKey(raw)) {
      throw new CatalogError('invalid_parameter', 'the object key must be a manifest key such as v1/cards/<id>/30d.json.gz', { parameter: 'key' });
    }
    return raw;
  },
});

export const BulkName = pathParam({
  component: 'BulkName', name: 'name',
  description: 'A bulk file name as `GET /v1/bulk` lists it (`cards`, `figures`, `oracle`, `sets`, `changes`).',
  schema: { type: 'string', pattern: SLUG_PATTERN.source },
  check: (raw) => requireSlug(present(raw), 'name'),
});

/** A pack's name is its SHA-256; checked before it becomes a path (the pack must also be listed by the manifest). */
export const PackHash = pathParam({
  component: 'PackHash', name: 'sha256',
  description: 'The SHA-256 (64 lower-case hex digits) of a pack the snapshot\'s manifest lists in `packs`.',
  schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  check: (raw) => {
    if (raw === undefined || raw === null || !isPackHash(raw)) {
      throw new CatalogError('invalid_parameter', 'sha256 must be the SHA-256 of a pack: 64 lower-case hex digits', { parameter: 'sha256' });
    }
    return raw;
  },
});

/** A file of a packed snapshot by the name its manifest lists in `files`: one segment, no `..`. */
export const SnapshotFileName = pathParam({
  component: 'SnapshotFileName', name: 'name',
  description: 'A file of a packed snapshot as its manifest lists it in `files` (`objects.sqlite`, `search.sqlite`, `changes.ndjson`).',
  schema: { type: 'string', pattern: SNAPSHOT_FILE_NAME.source, maxLength: 64, examples: ['objects.sqlite'] },
  check: (raw) => {
    if (raw === undefined || raw === null || !isSnapshotFileName(raw)) {
      throw new CatalogError('invalid_parameter', 'name must be a file the manifest lists, such as objects.sqlite', { parameter: 'name' });
    }
    return raw;
  },
});

/** `page` and `limit` of every list route, checked together by http/params.ts `parseListParams`. */
export const Page: DocumentedParam = {
  component: 'Page',
  doc: { name: 'page', in: 'query', required: false, description: `1-based page, at most ${MAX_PAGE} (the largest exact number); a page past the end is 200 with \`data: []\`.`, schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 } },
};

export function limitParam(defaultLimit: number): DocumentedParam {
  return {
    component: `Limit${defaultLimit}`,
    doc: { name: 'limit', in: 'query', required: false, description: `Items per page, default ${defaultLimit}: any integer 1 or more; above ${MAX_LIMIT} is capped at ${MAX_LIMIT} with a warning. 0, negatives, decimals or text are 400.`, schema: { type: 'integer', minimum: 1, default: defaultLimit } },
  };
}

/**
 * A key ID that is not 8 letters or digits breaks the document's pattern, so it is 400 naming `id`
 * like any malformed parameter (a well-formed unknown one is 404). Not echoed: it may be a whole key.
 */
export const KeyId = pathParam({
  component: 'KeyId', name: 'id', description: 'A key ID (the 8 characters after `rxk_`).',
  schema: { type: 'string', pattern: '^[0-9A-Za-z]{8}$' },
  check: (raw) => {
    if (raw === undefined || raw === null || !isKeyId(raw)) throw new CatalogError('invalid_parameter', 'id must be a key ID: the 8 letters or digits after rxk_', { parameter: 'id' });
    return raw;
  },
});

export const Tenant = queryParam({
  component: 'Tenant', name: 'tenant', description: 'Only the keys of this tenant.', schema: tenantSchema(),
  check: (raw) => (raw === undefined || raw === null ? undefined : parseTenant(raw)),
});

/** An instant of the audit route, as ms since the epoch (null when absent). */
const instant = (component: string, name: string, description: string) => queryParam({
  component, name, description, schema: instantSchema('A date or an ISO timestamp with a zone.'),
  check: (raw) => (raw === undefined || raw === null ? null : Date.parse(parseInstant(raw, name))),
});

export const Since = instant('Since', 'since', 'Rows at or after this instant: `YYYY-MM-DD` (midnight UTC) or an ISO timestamp with a zone (`2026-11-20T10:00:00Z`); a day that does not exist (2026-02-30) is 400.');
export const Until = instant('Until', 'until', 'Rows before this instant, in the form of `since` (must be after `since`).');
