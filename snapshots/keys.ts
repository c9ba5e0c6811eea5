/**
 * Object keys: every document lives at the key that mirrors its URL path (API.md §7), so a snapshot
 * can be served by this proxy, by nginx `gzip_static`, or from a partner's bucket unchanged.
 * Every function here expects ids already checked with `isValidId`/`isValidSlug` (ids.ts).
 *
 * Lists are stored as pages of STORED_PAGE_SIZE items; any other `limit` is served by slicing at most
 * two stored pages (a window of <= 100 items never spans more than two pages of 100).
 *
 * @example
 *   cardKey('base1-4', '30d')          // 'v1/cards/base1-4/30d.json.gz'
 *   setPageKey('mtg', 'lea', 2)        // 'v1/sets/mtg/lea/page-2.json.gz'
 */
import type { Game, Range } from './records.js';
import { isValidId } from './ids.js';

export const OBJECT_SUFFIX = '.json.gz';
export const STORED_PAGE_SIZE = 100;
/** Ranked feeds (trending, recent) keep this many entries. */
export const FEED_DEPTH = 500;

export type ListFamily =
  | { kind: 'set'; game: Game; code: string }
  | { kind: 'artist'; slug: string }
  | { kind: 'series'; id: string }
  | { kind: 'trending'; game: Game | 'all' }
  | { kind: 'recent'; game: Game | 'all' }
  | { kind: 'discover'; feed: DiscoverFeed }
  | { kind: 'showcaseBinders'; handle: string };

export const DISCOVER_FEEDS = ['sets', 'users', 'binders', 'activity', 'sparklines'] as const;
export type DiscoverFeed = (typeof DISCOVER_FEEDS)[number];

export const cardKey = (id: string, range: Range) => `v1/cards/${id}/${range}${OBJECT_SUFFIX}`;
export const figureKey = (id: string) => `v1/figures/${id}${OBJECT_SUFFIX}`;
export const oracleKey = (id: string) => `v1/oracle/${id}${OBJECT_SUFFIX}`;
export const pullStatsKey = (seriesId: string) => `v1/series/${seriesId}/pull-stats${OBJECT_SUFFIX}`;
export const summaryKey = () => `v1/catalog/summary${OBJECT_SUFFIX}`;
export const showcaseKey = (handle: string) => `v1/u/${handle}${OBJECT_SUFFIX}`;

/** The folder (key prefix) that holds a list's stored pages. */
export function listBase(family: ListFamily): string {
  switch (family.kind) {
    case 'set': return `v1/sets/${family.game}/${family.code}`;
    case 'artist': return `v1/artists/${family.slug}`;
    case 'series': return `v1/figures/series/${family.id}`;
    case 'trending': return `v1/trending/${family.game}`;
    case 'recent': return `v1/recent/${family.game}`;
    case 'discover': return `v1/discover/${family.feed}`;
    case 'showcaseBinders': return `v1/u/${family.handle}/binders`;
  }
}

/** Key of stored page `page` (1-based, STORED_PAGE_SIZE items) of a list. */
export function listPageKey(family: ListFamily, page: number): string {
  return `${listBase(family)}/page-${page}${OBJECT_SUFFIX}`;
}

export const setPageKey = (game: Game, code: string, page: number) => listPageKey({ kind: 'set', game, code }, page);
export const artistPageKey = (slug: string, page: number) => listPageKey({ kind: 'artist', slug }, page);
export const seriesPageKey = (id: string, page: number) => listPageKey({ kind: 'series', id }, page);

/**
 * True for a well-formed object key: `v1/…/<name>.json.gz` where every segment is a valid id (so
 * never empty, `.` or `..`). Checked wherever a key from a request or a downloaded manifest is about
 * to become a path.
 */
export function isObjectKey(key: string): boolean {
  if (key.length > 512 || !key.startsWith('v1/') || !key.endsWith(OBJECT_SUFFIX)) return false;
  return key.split('/').every(isValidId);
}

/** Files beside the objects in a snapshot folder. */
export const MANIFEST_FILE = 'manifest.ndjson';
export const CHANGES_FILE = 'changes.ndjson';
/** Detached Ed25519 signature of the manifest (snapshots/signature.ts). */
export const MANIFEST_SIGNATURE_FILE = 'manifest.ndjson.sig';
/** Folder of the bulk files (gzip NDJSON of every card, figure, set, oracle concept, and the changes). */
export const BULK_DIR = 'bulk';
export const SEARCH_DB_FILE = 'search.sqlite';
/** A packed snapshot's object index: key → (pack, offset, length, sha256) (snapshots/packs/object-index.ts). */
export const OBJECT_INDEX_FILE = 'objects.sqlite';
/** Folder of a snapshot root that holds the pack files every packed snapshot shares. */
export const PACKS_DIR = 'packs';
/** The pointer (a symlink) in a snapshot root that names the current snapshot folder. */
export const CURRENT_POINTER = 'current';

/**
 * A file a packed manifest lists in `files` (objects.sqlite, search.sqlite, changes.ndjson): one
 * segment of letters, digits, `_` and `-` joined by single dots, so never `.`, `..`, a slash or a
 * hidden name. Checked where such a name from a request or a downloaded manifest becomes a path.
 */
export const SNAPSHOT_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9][A-Za-z0-9_-]*)*$/;

export function isSnapshotFileName(name: string): boolean {
  return typeof name === 'string' && name.length <= 64 && SNAPSHOT_FILE_NAME.test(name);
}
