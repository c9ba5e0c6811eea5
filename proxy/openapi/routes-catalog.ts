/**
 * Every catalog read route of the proxy (proxy/routes/*), one entry each. Adding a route to the
 * document: add its entry here (schemas in schemas-*.ts if its data is new), then `npm run openapi`.
 * The example and notFound requests name ids of the example catalog (examples.ts).
 */
import { ref } from './schema-kit.js';
import type { ReadRoute } from './route-spec.js';

const ENTITIES = 'Cards, figures and sets';
const FEEDS = 'Feeds';
const SHOWCASE = 'Public showcase';

const feed = (name: string, kind: ReadRoute['kind'], item: string, summary: string, description: string): ReadRoute => ({
  path: `/v1/discover/${name}`,
  operationId: `getDiscover${name[0].toUpperCase()}${name.slice(1)}`,
  tag: FEEDS, summary, description, access: 'partner', parameters: ['Page', 'Limit20'],
  kind, data: ref(item), list: true, envelope: `${kind[0].toUpperCase()}${kind.slice(1)}Envelope`,
  example: `/v1/discover/${name}?limit=2`,
});

export function catalogRoutes(): ReadRoute[] {
  return [
    {
      path: '/v1/cards/{id}', operationId: 'getCard', tag: ENTITIES, summary: 'One card printing with its price history',
      description: 'Each range is its own stored document; longer ranges are downsampled (daily for 30d and 3mo, weekly for 6mo and 12mo, monthly for all). docs/documents-entities.md describes every field.',
      access: 'partner', parameters: ['Id', 'Range'], kind: 'card', data: ref('Card'), list: false, envelope: 'CardEnvelope',
      example: '/v1/cards/OP01-001?range=30d', notFound: '/v1/cards/OP99-999',
    },
    {
      path: '/v1/figures/{id}', operationId: 'getFigure', tag: ENTITIES, summary: 'One collectible figure',
      description: 'A year of weekly price history and the last 30 days summarized apart.',
      access: 'partner', parameters: ['Id'], kind: 'figure', data: ref('Figure'), list: false, envelope: 'FigureEnvelope',
      example: '/v1/figures/fs-0001-01', notFound: '/v1/figures/fs-9999-99',
    },
    {
      path: '/v1/figures/series/{id}', operationId: 'listFigureSeries', tag: ENTITIES, summary: 'The figures of one series',
      description: 'Figure summaries by rarity tier, then name, then id.',
      access: 'partner', parameters: ['Id', 'Page', 'Limit100'], kind: 'series', data: ref('Summary'), list: true, envelope: 'SeriesEnvelope',
      example: '/v1/figures/series/fs-0001?limit=2', notFound: '/v1/figures/series/fs-9999',
    },
    {
      path: '/v1/oracle/{id}', operationId: 'getOracle', tag: ENTITIES, summary: 'An MTG oracle concept and all its printings',
      description: 'One Magic: The Gathering rules object, every printing oldest set first, and price aggregates over them.',
      access: 'partner', parameters: ['Id'], kind: 'oracle', data: ref('Oracle'), list: false, envelope: 'OracleEnvelope',
      example: '/v1/oracle/01df92ef-8f39-42c3-9b2c-e8e90044978f', notFound: '/v1/oracle/00000000-0000-0000-0000-000000000000',
    },
    {
      path: '/v1/sets/{game}/{setCode}', operationId: 'listSet', tag: ENTITIES, summary: 'The cards of one set',
      description: 'Card summaries by collector number in natural order, then id. Stored as pages of 100: `limit=100` is the stored page byte for byte.',
      access: 'partner', parameters: ['Game', 'SetCode', 'Page', 'Limit100'], kind: 'set', data: ref('Summary'), list: true, envelope: 'SetEnvelope',
      example: '/v1/sets/mtg/was?limit=2&page=2', notFound: '/v1/sets/mtg/zzz',
    },
    {
      path: '/v1/artists/{slug}', operationId: 'listArtist', tag: ENTITIES, summary: 'Every printing by one artist',
      description: 'Card summaries of every game, newest release first, then id.',
      access: 'partner', parameters: ['ArtistSlug', 'Page', 'Limit100'], kind: 'artist', data: ref('Summary'), list: true, envelope: 'ArtistEnvelope',
      example: '/v1/artists/lars-bronte?limit=2', notFound: '/v1/artists/nobody-at-all',
    },
    {
      path: '/v1/series/{id}/pull-stats', operationId: 'getPullStats', tag: ENTITIES, summary: 'Community pull rates of a figure series',
      description: 'Raw and smoothed (beta-binomial, empirical Bayes) rates with 95 % credible intervals; docs/documents-lists.md gives the formula.',
      access: 'partner', parameters: ['Id'], kind: 'pullStats', data: ref('PullStats'), list: false, envelope: 'PullStatsEnvelope',
      example: '/v1/series/fs-0001/pull-stats', notFound: '/v1/series/fs-9999/pull-stats',
    },
    {
      path: '/v1/catalog/summary', operationId: 'getCatalogSummary', tag: ENTITIES, summary: 'Counts and coverage of the catalog',
      description: 'Per game: sets, cards, priced cards, oracle concepts; figures, series, artists, public users and binders, currencies, the price range.',
      access: 'partner', parameters: [], kind: 'catalogSummary', data: ref('CatalogSummary'), list: false, envelope: 'CatalogSummaryEnvelope',
      example: '/v1/catalog/summary',
    },
    {
      path: '/v1/trending', operationId: 'listTrending', tag: FEEDS, summary: 'Cards and figures by 24-hour price velocity',
      description: '(price now - price 24 h ago) / price 24 h ago, highest first; entries under $1 a day ago are left out. At most 500 entries.',
      access: 'partner', parameters: ['GameFilter', 'Page', 'Limit20'], kind: 'trending', data: ref('TrendingItem'), list: true, envelope: 'TrendingEnvelope',
      example: '/v1/trending?game=mtg&limit=2',
    },
    {
      path: '/v1/recent', operationId: 'listRecent', tag: FEEDS, summary: 'Cards and figures most recently added',
      description: 'Newest `addedAt` first, then id; at most 500 entries.',
      access: 'partner', parameters: ['GameFilter', 'Page', 'Limit20'], kind: 'recent', data: ref('RecentItem'), list: true, envelope: 'RecentEnvelope',
      example: '/v1/recent?limit=2',
    },
    feed('sets', 'discoverSets', 'DiscoverSet', 'Every set, newest first', 'Every set with its card and priced-card counts, newest release first.'),
    feed('users', 'discoverUsers', 'DiscoverUser', 'Users of the public showcase', 'Only users who opted into the public showcase, newest first.'),
    feed('binders', 'discoverBinders', 'DiscoverBinder', 'Public binders', 'Public binders of public users, most recently updated first, with a preview of 4 entries.'),
    feed('activity', 'discoverActivity', 'DiscoverActivity', 'Daily activity counts', 'Events per type on each of the 30 days ending at the latest event; a count under 5 is null.'),
    feed('sparklines', 'discoverSparklines', 'SparklineItem', 'Most-watched entries with 30 days of prices', 'The 50 most-watched priced cards and figures.'),
    {
      path: '/v1/search', operationId: 'search', tag: 'Search', summary: 'Full-text search over cards, figures and sets',
      description: 'Words and word prefixes, diacritics folded, ranked by relevance tier then popularity; `total` counts up to 1,000 matches. Answered from the snapshot\'s index: the ETag is the SHA-256 of the JSON body. See docs/search.md.',
      access: 'partner', parameters: ['SearchQuery', 'Page', 'Limit20'], kind: 'search', data: ref('SearchItem'), list: true, envelope: 'SearchEnvelope',
      example: '/v1/search?q=wurm&limit=3',
    },
    {
      path: '/v1/u/{handle}', operationId: 'getShowcase', tag: SHOWCASE, summary: 'A user\'s public showcase',
      description: 'Exists only for users who opted in; any other handle is 404, exactly like one that was never taken. No credential needed.',
      access: 'public', parameters: ['Handle'], kind: 'showcase', data: ref('Showcase'), list: false, envelope: 'ShowcaseEnvelope',
      example: '/v1/u/cosmictiger-x', notFound: '/v1/u/nobody-here',
    },
    {
      path: '/v1/u/{handle}/binders', operationId: 'listShowcaseBinders', tag: SHOWCASE, summary: 'A user\'s public binders with their entries',
      description: 'Most recently updated first. No credential needed.',
      access: 'public', parameters: ['Handle', 'Page', 'Limit100'], kind: 'showcaseBinders', data: ref('ShowcaseBinder'), list: true, envelope: 'ShowcaseBindersEnvelope',
      example: '/v1/u/cosmictiger-x/binders', notFound: '/v1/u/nobody-here/binders',
    },
  ];
}
