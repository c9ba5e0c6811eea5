/**
 * The `data` of the single documents (docs/documents-entities.md, docs/documents-lists.md): card,
 * figure, oracle concept, pull-stats, catalog summary, showcase. Written from the renderers'
 * output types (compiler/render/); the tests validate real compiled documents against them.
 */
import { FIGURE_RARITIES, GAMES, RANGES } from '../../snapshots/records.js';
import { arrayOf, bool, cents, closed, int, nullable, num, oneOfValues, ref, str, timestamp, type Schema } from './schema-kit.js';

const RESOLUTIONS = ['day', 'week', 'month', 'quarter', 'year'] as const;
const nullableCents = (description: string) => nullable(cents(description));

export function documentSchemas(): Record<string, Schema> {
  return {
    Prices: closed({
      marketCents: cents('Last known price, USD cents.'),
      marketCentsEur: nullableCents('marketCents in euro cents; null without a rate.'),
      marketCentsGbp: nullableCents('marketCents in pence; null without a rate.'),
      marketCentsCad: nullableCents('marketCents in Canadian cents; null without a rate.'),
      marketCentsAud: nullableCents('marketCents in Australian cents; null without a rate.'),
      priceDate: timestamp('The day of marketCents.'),
      previousCents: nullableCents('The price the day before priceDate.'),
      change24hCents: nullableCents('marketCents - previousCents.'),
      velocity24h: nullable(num('(marketCents - previousCents) / previousCents, 4 decimals.')),
      synthetic: { type: 'boolean', description: 'True when the price history was generated for a demo (`catalog import --synthetic-prices`), not observed in a market.' },
    }, 'The current price and its conversions; null on a document without any price.'),
    FxQuote: closed({
      rate: num('Units of the currency per 1 USD.'),
      date: timestamp('The day the rate was published.'),
      source: str('Who published it.'),
    }),
    Fx: closed({
      eur: nullable(ref('FxQuote')),
      gbp: nullable(ref('FxQuote')),
      cad: nullable(ref('FxQuote')),
      aud: nullable(ref('FxQuote')),
    }, 'Where each converted price came from, once per document.'),
    Aggregates: closed({
      minCents: nullableCents('Lowest daily price of the window.'),
      maxCents: nullableCents('Highest daily price of the window.'),
      avgCents: nullableCents('Mean daily price, rounded.'),
      changeCents: nullableCents('Last minus first price of the window.'),
      changePct: nullable(num('changeCents / first price x 100, 2 decimals.')),
    }),
    History: closed({
      name: oneOfValues(RANGES),
      from: nullable(ref('Timestamp')),
      to: nullable(ref('Timestamp')),
      resolution: oneOfValues(RESOLUTIONS, 'The bucket of `points`.'),
      points: arrayOf({
        type: 'array',
        prefixItems: [ref('Timestamp'), cents()],
        minItems: 2,
        maxItems: 2,
        description: '[day, USD cents]: the last price observed in the bucket.',
      }, 'Oldest first; at most 100.'),
      aggregates: ref('Aggregates'),
    }, 'Price history of one range.'),
    Card: closed({
      id: str(),
      game: ref('Game'),
      name: str(),
      number: str('Collector number as printed.'),
      rarity: nullable(str()),
      imageUrl: nullable(str()),
      releasedAt: nullable(timestamp()),
      addedAt: timestamp('The day the card entered the catalog.'),
      oracleId: nullable(str('MTG oracle id (GET /v1/oracle/{id}).')),
      artist: nullable(closed({ name: str(), slug: str('Key of GET /v1/artists/{slug}.') })),
      set: closed({ game: ref('Game'), code: str(), name: str(), releasedAt: nullable(timestamp()) }),
      prices: nullable(ref('Prices')),
      fx: nullable(ref('Fx')),
      range: ref('History'),
    }, 'One printing with the history of the requested range.'),
    Figure: closed({
      id: str(),
      name: str(),
      rarity: nullable(oneOfValues(FIGURE_RARITIES)),
      imageUrl: nullable(str()),
      releasedAt: nullable(timestamp()),
      addedAt: timestamp(),
      series: closed({ id: str(), name: str() }),
      prices: nullable(ref('Prices')),
      fx: nullable(ref('Fx')),
      history: ref('History'),
      aggregates30d: ref('Aggregates'),
    }, 'One collectible figure with a year of weekly history.'),
    OraclePrinting: closed({
      id: str(),
      name: str(),
      set: closed({ code: str(), name: str(), releasedAt: nullable(timestamp()) }),
      number: str(),
      rarity: nullable(str()),
      artist: nullable(str()),
      imageUrl: nullable(str()),
      marketCents: nullableCents('Current USD price of the printing.'),
      priceDate: nullable(ref('Timestamp')),
      priceSynthetic: nullable(bool('True when marketCents comes from a price history generated for a demo (`catalog import --synthetic-prices`), false when observed; null without a price.')),
    }),
    PricedRef: closed({
      id: str(),
      marketCents: cents(),
      priceSynthetic: bool('True when marketCents comes from a price history generated for a demo, false when observed.'),
    }),
    Oracle: closed({
      id: str(),
      name: str('Name of the most recent printing.'),
      game: { const: 'mtg' },
      printingsCount: int(),
      printings: arrayOf(ref('OraclePrinting'), 'Oldest set first.'),
      aggregates: closed({
        pricedPrintings: int(),
        cheapest: nullable(ref('PricedRef')),
        medianCents: nullableCents('Median of the priced printings.'),
        highest: nullable(ref('PricedRef')),
      }),
    }, 'An MTG rules object and every printing of it.'),
    PullStats: closed({
      series: closed({ id: str(), name: str() }),
      reports: int('Community reports of this series.'),
      boxesOpened: int(),
      method: { const: 'beta-binomial' },
      prior: closed({ strength: num('Pseudo-boxes of the prior.') }),
      figures: arrayOf(closed({
        id: str(),
        name: str(),
        rarity: nullable(oneOfValues(FIGURE_RARITIES)),
        observed: int('Pulls of this figure.'),
        sampleSize: int('Boxes opened.'),
        rawRate: nullable(num()),
        smoothedRate: num('Posterior mean.'),
        credibleInterval: closed({ level: num(), low: num(), high: num() }),
        prior: closed({ rate: num(), strength: num() }),
      })),
    }, 'Community pull rates of a blind-box series (beta-binomial smoothing).'),
    CatalogSummary: closed({
      cards: closed({
        total: int('Every card (printing) of the snapshot: the sum of byGame, and the rows of the cards bulk file.'),
        byGame: ref('GameCounts'),
        priced: int('Cards with at least one price point.'),
        pricedByGame: ref('GameCounts'),
        oracleConcepts: closed({
          total: int('Distinct oracle ids over every game.'),
          byGame: closed(Object.fromEntries(GAMES.map((g) => [g, nullable(int())])), 'Null where the game\'s source carries no oracle ids (MTG always counts).'),
        }),
        artists: int('Distinct artists over every printing.'),
      }),
      sets: closed({ total: int('Every set of the snapshot: the sum of byGame.'), byGame: ref('GameCounts') }),
      figures: closed({
        total: int('Every figure of the snapshot: the rows of the figures bulk file.'),
        priced: int('Figures with at least one price point.'),
        series: int('Figure series.'),
      }),
      publicUsers: int('Users who opted into the public showcase.'),
      publicBinders: int('Public binders of those users.'),
      currencies: arrayOf(str(), 'USD first, then the alternate currencies.'),
      priceRange: nullable(ref('DateRange')),
    }, 'Snapshot counts (partner document part 2: cards.total, cards.byGame, figures.total, sets.total), usable to learn the row count before a full mirror.'),
    GameCounts: closed(Object.fromEntries(GAMES.map((g) => [g, int()])), 'A count per game identifier; all four are always present, 0 where a game has none.'),
    DateRange: closed({ from: timestamp(), to: timestamp() }),
    Showcase: closed({
      handle: str(),
      displayName: nullable(str()),
      joinedAt: timestamp(),
      binders: arrayOf(ref('ShowcaseBinderRef')),
    }, 'A user who opted into the public showcase.'),
    ShowcaseBinderRef: closed({ id: str(), name: str(), itemCount: int(), updatedAt: timestamp() }),
  };
}
