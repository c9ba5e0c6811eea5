/**
 * The partner catalog reads of API.md §3 and the public showcase: each one entry, from which the
 * Hono route, its parameter checks and its OpenAPI path item are made (route.ts). Adding a query
 * parameter to a route is adding it to `params` here; to every list route, to `listParams`.
 * The example and notFound requests name ids of the example catalog (proxy/openapi/examples.ts).
 */
import { cardKey, figureKey, oracleKey, pullStatsKey, showcaseKey, summaryKey } from '../../snapshots/keys.js';
import { ref } from '../openapi/schema-kit.js';
import type { Params } from './param.js';
import { ArtistSlug, Feed, Fields, Game, GameFilter, Handle, Id, Range, SearchQuery, SetCode, Snapshot, View } from './params.js';
import { route, type ReadDoc, type Route } from './route.js';
import { checkSelection } from '../serve-object/selection.js';

const ENTITIES = 'Cards, figures and sets';
const FEEDS = 'Feeds';
const SHOWCASE = 'Public showcase';

/**
 * A list route's parameters: its own, then those every list route takes (`fields`, `view`: field
 * selection, serve-object/selection.ts), then `page` and `limit` with this default limit. A
 * parameter for every list goes into the spread here.
 */
function list<P extends Params>(own: P, defaultLimit: number): { params: P & { fields: typeof Fields; view: typeof View }; paging: number } {
  return { params: { ...own, fields: Fields, view: View }, paging: defaultLimit };
}

const feed = (name: string, kind: ReadDoc['kind'], item: string, summary: string, description: string): ReadDoc => ({
  operationId: `getDiscover${name[0].toUpperCase()}${name.slice(1)}`,
  tag: FEEDS, summary, description, access: 'partner', kind, data: ref(item), example: `/v1/discover/${name}?limit=2`,
});

/**
 * Every catalog read takes `snapshot=<id>` (issue 20, as-of reads), after its own parameters: the
 * registration pins that kept snapshot (register.ts), so the answer is the stored one, its ETag
 * the one it had when that snapshot was current.
 */
const asOf = (r: Route): Route => ({ ...r, params: { ...r.params, snapshot: Snapshot } });

export function catalogTable(): Route[] {
  return [
    route({
      path: '/v1/cards/{id}', params: { id: Id, range: Range },
      answer: { document: ({ id, range }) => cardKey(id, range), what: 'card' },
      doc: { read: {
        operationId: 'getCard', tag: ENTITIES, summary: 'One card printing with its price history',
        description: 'Each range is its own stored document; longer ranges are downsampled (daily for 30d and 3mo, weekly for 6mo and 12mo, monthly for all). docs/documents-entities.md describes every field.',
        access: 'partner', kind: 'card', data: ref('Card'), example: '/v1/cards/OP01-001?range=30d', notFound: '/v1/cards/OP99-999',
      } },
    }),
    route({
      path: '/v1/figures/{id}', params: { id: Id },
      answer: { document: ({ id }) => figureKey(id), what: 'figure' },
      doc: { read: {
        operationId: 'getFigure', tag: ENTITIES, summary: 'One collectible figure',
        description: 'A year of weekly price history and the last 30 days summarized apart.',
        access: 'partner', kind: 'figure', data: ref('Figure'), example: '/v1/figures/fs-0001-01', notFound: '/v1/figures/fs-9999-99',
      } },
    }),
    route({
      path: '/v1/figures/series/{id}', ...list({ id: Id }, 100),
      answer: { list: ({ id }) => ({ kind: 'series', id }), what: 'figure series' },
      doc: { read: {
        operationId: 'listFigureSeries', tag: ENTITIES, summary: 'The figures of one series',
        description: 'Figure summaries by rarity tier, then name, then id.',
        access: 'partner', kind: 'series', data: ref('Summary'), example: '/v1/figures/series/fs-0001?limit=2', notFound: '/v1/figures/series/fs-9999',
      } },
    }),
    route({
      path: '/v1/oracle/{id}', params: { id: Id },
      answer: { document: ({ id }) => oracleKey(id), what: 'oracle concept' },
      doc: { read: {
        operationId: 'getOracle', tag: ENTITIES, summary: 'An MTG oracle concept and all its printings',
        description: 'One Magic: The Gathering rules object, every printing oldest set first, and price aggregates over them.',
        access: 'partner', kind: 'oracle', data: ref('Oracle'), example: '/v1/oracle/01df92ef-8f39-42c3-9b2c-e8e90044978f', notFound: '/v1/oracle/00000000-0000-0000-0000-000000000000',
      } },
    }),
    route({
      path: '/v1/sets/{game}/{setCode}', ...list({ game: Game, setCode: SetCode }, 100),
      answer: { list: ({ game, setCode }) => ({ kind: 'set', game, code: setCode }), what: 'set' },
      doc: { read: {
        operationId: 'listSet', tag: ENTITIES, summary: 'The cards of one set',
        description: 'Card summaries by collector number in natural order, then id. Stored as pages of 100: `limit=100` is the stored page byte for byte.',
        access: 'partner', kind: 'set', data: ref('Summary'), example: '/v1/sets/mtg/was?limit=2&page=2', notFound: '/v1/sets/mtg/zzz',
      } },
    }),
    route({
      path: '/v1/artists/{slug}', ...list({ slug: ArtistSlug }, 100),
      answer: { list: ({ slug }) => ({ kind: 'artist', slug }), what: 'artist' },
      doc: { read: {
        operationId: 'listArtist', tag: ENTITIES, summary: 'Every printing by one artist',
        description: 'Card summaries of every game, newest release first, then id.',
        access: 'partner', kind: 'artist', data: ref('Summary'), example: '/v1/artists/lars-bronte?limit=2', notFound: '/v1/artists/nobody-at-all',
      } },
    }),
    route({
      path: '/v1/series/{id}/pull-stats', params: { id: Id },
      answer: { document: ({ id }) => pullStatsKey(id), what: 'pull stats' },
      doc: { read: {
        operationId: 'getPullStats', tag: ENTITIES, summary: 'Community pull rates of a figure series',
        description: 'Raw and smoothed (beta-binomial, empirical Bayes) rates with 95 % credible intervals; docs/documents-lists.md gives the formula.',
        access: 'partner', kind: 'pullStats', data: ref('PullStats'), example: '/v1/series/fs-0001/pull-stats', notFound: '/v1/series/fs-9999/pull-stats',
      } },
    }),
    route({
      path: '/v1/catalog/summary', params: {},
      answer: { document: () => summaryKey(), what: 'catalog summary' },
      doc: { read: {
        operationId: 'getCatalogSummary', tag: ENTITIES, summary: 'Counts and coverage of the catalog',
        description: 'The snapshot counts of partner-api-v1 part 2 (`cards.total`, `cards.byGame`, `figures.total`, `sets.total`: the row counts of the bulk files, to read before a full mirror), with priced cards, oracle concepts and artists under `cards`, sets per game under `sets`, priced figures and series under `figures`; public users and binders, currencies, the price range.',
        access: 'partner', kind: 'catalogSummary', data: ref('CatalogSummary'), example: '/v1/catalog/summary',
      } },
    }),
    route({
      path: '/v1/trending', ...list({ game: GameFilter }, 20),
      answer: { list: ({ game }) => ({ kind: 'trending', game }), what: 'trending feed' },
      doc: { read: {
        operationId: 'listTrending', tag: FEEDS, summary: 'Cards and figures by 24-hour price velocity',
        description: '(price now - price 24 h ago) / price 24 h ago, highest first; entries under $1 a day ago are left out. At most 500 entries.',
        access: 'partner', kind: 'trending', data: ref('TrendingItem'), example: '/v1/trending?game=mtg&limit=2',
      } },
    }),
    route({
      path: '/v1/recent', ...list({ game: GameFilter }, 20),
      answer: { list: ({ game }) => ({ kind: 'recent', game }), what: 'recent feed' },
      doc: { read: {
        operationId: 'listRecent', tag: FEEDS, summary: 'Cards and figures most recently added',
        description: 'Newest `addedAt` first, then id; at most 500 entries.',
        access: 'partner', kind: 'recent', data: ref('RecentItem'), example: '/v1/recent?limit=2',
      } },
    }),
    route({
      path: '/v1/discover/{feed}', ...list({ feed: Feed }, 20),
      answer: { list: ({ feed }) => ({ kind: 'discover', feed }), what: 'discover feed' },
      doc: { each: 'feed', read: {
        sets: feed('sets', 'discoverSets', 'DiscoverSet', 'Every set, newest first', 'Every set with its card and priced-card counts, newest release first.'),
        users: feed('users', 'discoverUsers', 'DiscoverUser', 'Users of the public showcase', 'Only users who opted into the public showcase, newest first.'),
        binders: feed('binders', 'discoverBinders', 'DiscoverBinder', 'Public binders', 'Public binders of public users, most recently updated first, with a preview of 4 entries.'),
        activity: feed('activity', 'discoverActivity', 'DiscoverActivity', 'Daily activity counts', 'Events per type on each of the 30 days ending at the latest event; a count under 5 is null.'),
        sparklines: feed('sparklines', 'discoverSparklines', 'SparklineItem', 'Most-watched entries with 30 days of prices', 'The 50 most-watched priced cards and figures.'),
      } },
    }),
    route({
      path: '/v1/search', ...list({ q: SearchQuery }, 20),
      answer: { handler: (c, { values, page }, deps) => deps.search(c, values.q, page!, checkSelection('SearchItem', values.fields, values.view)) },
      doc: { read: {
        operationId: 'search', tag: 'Search', summary: 'Full-text search over cards, figures and sets',
        description: 'Words and word prefixes, diacritics folded, ranked by relevance tier then popularity; `total` counts up to 1,000 matches. Answered from the snapshot\'s index: the ETag is the SHA-256 of the JSON body. See docs/search.md.',
        access: 'partner', kind: 'search', data: ref('SearchItem'), example: '/v1/search?q=wurm&limit=3',
      } },
    }),
    route({
      path: '/v1/u/{handle}', params: { handle: Handle },
      answer: { document: ({ handle }) => showcaseKey(handle), what: 'showcase' },
      doc: { read: {
        operationId: 'getShowcase', tag: SHOWCASE, summary: 'A user\'s public showcase',
        description: 'Exists only for users who opted in; any other handle is 404, exactly like one that was never taken. No credential needed.',
        access: 'public', kind: 'showcase', data: ref('Showcase'), example: '/v1/u/cosmictiger-x', notFound: '/v1/u/nobody-here',
      } },
    }),
    route({
      path: '/v1/u/{handle}/binders', params: { handle: Handle }, paging: 100,
      answer: { list: ({ handle }) => ({ kind: 'showcaseBinders', handle }), what: 'showcase' },
      doc: { read: {
        operationId: 'listShowcaseBinders', tag: SHOWCASE, summary: 'A user\'s public binders with their entries',
        description: 'Most recently updated first. No credential needed.',
        access: 'public', kind: 'showcaseBinders', data: ref('ShowcaseBinder'), example: '/v1/u/cosmictiger-x/binders', notFound: '/v1/u/nobody-here/binders',
      } },
    }),
  ].map(asOf);
}
