/**
 * Item schemas of the lists and feeds (docs/documents-lists.md, docs/search.md). Cards and figures
 * take one summary shape each, told apart by `entity`; feeds add their own fields to it. The
 * property maps are spread into flat closed objects so a generated client sees plain types.
 */
import { ACTIVITY_TYPES, FIGURE_RARITIES } from '../../snapshots/records.js';
import { arrayOf, bool, cents, closed, int, nullable, num, oneOfValues, ref, str, timestamp, type Schema } from './schema-kit.js';

const SEARCH_MATCHES = ['exact', 'nameStart', 'nameWords', 'nameStartPrefix', 'namePrefix', 'anyField'] as const;

/** The document's `prices.synthetic`, flat beside marketCents and priceDate and, like them, null without a price. */
const priceSynthetic = (): Schema => nullable(bool(
  'True when marketCents comes from a price history generated for a demo (`catalog import --synthetic-prices`), false when observed; null without a price.',
));

const cardSummary = (): Record<string, Schema> => ({
  entity: { const: 'card' },
  id: str(),
  game: ref('Game'),
  name: str(),
  number: str(),
  rarity: nullable(str()),
  set: closed({ code: str(), name: nullable(str()) }),
  artist: nullable(str()),
  imageUrl: nullable(str()),
  marketCents: nullable(cents('Last known USD price.')),
  priceDate: nullable(ref('Timestamp')),
  priceSynthetic: priceSynthetic(),
});

const figureSummary = (): Record<string, Schema> => ({
  entity: { const: 'figure' },
  id: str(),
  name: str(),
  rarity: nullable(oneOfValues(FIGURE_RARITIES)),
  series: closed({ id: str(), name: nullable(str()) }),
  imageUrl: nullable(str()),
  marketCents: nullable(cents('Last known USD price.')),
  priceDate: nullable(ref('Timestamp')),
  priceSynthetic: priceSynthetic(),
});

/** A card variant and a figure variant of a feed item, plus the oneOf of both. */
function entityVariants(name: string, extra: Record<string, Schema>, description: string): Record<string, Schema> {
  return {
    [`${name}Card`]: closed({ ...cardSummary(), ...extra }),
    [`${name}Figure`]: closed({ ...figureSummary(), ...extra }),
    [name]: { oneOf: [ref(`${name}Card`), ref(`${name}Figure`)], description },
  };
}

export function listSchemas(): Record<string, Schema> {
  const match = oneOfValues(SEARCH_MATCHES, 'The relevance tier that found the item (docs/search.md).');
  return {
    ...entityVariants('Summary', {}, 'A card or figure in a list, feed or binder; `entity` tells which.'),
    ...entityVariants('TrendingItem', {
      previousCents: cents('Price 24 h before priceDate.'),
      changeCents: cents('marketCents - previousCents.'),
      velocity24h: num('changeCents / previousCents, 4 decimals.'),
    }, 'A summary with its 24-hour price move.'),
    ...entityVariants('RecentItem', { addedAt: timestamp('The day it entered the catalog.') }, 'A summary with the day it was added.'),
    ...entityVariants('SparklineItem', {
      watchers: int('How many users watch it.'),
      from: timestamp('The day of points[0].'),
      points: arrayOf(nullable(cents()), '30 daily USD prices ending at priceDate, null for a day without a price.'),
    }, 'A most-watched entry with 30 days of prices.'),
    DiscoverSet: closed({
      game: ref('Game'), code: str(), name: str(), series: nullable(str()), releasedAt: nullable(timestamp()),
      cardCount: int(), pricedCount: int('Cards of the set with a price.'),
    }),
    DiscoverUser: closed({
      handle: str(), displayName: nullable(str()), joinedAt: timestamp(),
      publicBinders: int(), items: int('Entries in their public binders.'),
    }),
    DiscoverBinder: closed({
      id: str(), name: str(), owner: closed({ handle: str(), displayName: nullable(str()) }),
      itemCount: int(), updatedAt: timestamp(), preview: arrayOf(ref('Summary'), 'The first 4 entries that are in the catalog.'),
    }),
    DiscoverActivity: closed({
      date: timestamp(),
      type: oneOfValues(ACTIVITY_TYPES),
      count: nullable(int('Events of this type that day; null under 5, so nobody can be singled out.')),
    }),
    ShowcaseBinder: closed({
      id: str(), name: str(), itemCount: int(), updatedAt: timestamp(), items: arrayOf(ref('Summary')),
    }),
    SearchCard: closed({ ...cardSummary(), kind: { const: 'card' }, match }),
    SearchFigure: closed({ ...figureSummary(), kind: { const: 'figure' }, game: { type: 'null' }, match }),
    SearchSet: closed({
      entity: { const: 'set' }, kind: { const: 'set' }, id: str('`<game>-<code>`.'), game: ref('Game'), code: str(),
      name: str(), series: nullable(str()), releasedAt: nullable(timestamp()), cardCount: int(), match,
    }),
    SearchItem: { oneOf: [ref('SearchCard'), ref('SearchFigure'), ref('SearchSet')], description: 'A search hit; `kind` tells which.' },
  };
}
