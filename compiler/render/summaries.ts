/**
 * The summary shapes a card or figure takes inside every list and feed, and the lookups the
 * renderers share.
 *
 * Price fields are flat (`marketCents`, `priceDate`, `priceSynthetic`) rather than a `prices`
 * object like the card document's, so a list item stays one level deep; `priceSynthetic` is the
 * document's `prices.synthetic` and, like its two siblings, null when the entry has no price.
 *
 * Input choice: prices are two maps, one per entity type (`prices.card`, `prices.figure`), keyed by
 * the entity id, so `prices[item.entity].get(item.id)` works without building `card:<id>` strings
 * for a million entries. Sets are keyed by `setMapKey(game, code)` because a set code is unique
 * only within its game.
 */
import { toTimestamp } from '../../snapshots/envelope.js';
import { KEYS_IN_ORDER } from '../../snapshots/codec.js';
import type {
  BinderItem, CardRecord, FigureRarity, FigureRecord, FigureSeriesRecord, Game, SetRecord,
} from '../../snapshots/records.js';
import type { LatestPrice, PriceLookup, PricesInOrder } from './types.js';
import { cardColumns, type CardColumns } from '../source/card-table.js';

export interface CardSummary {
  entity: 'card';
  id: string;
  game: Game;
  name: string;
  number: string;
  rarity: string | null;
  set: { code: string; name: string | null };
  artist: string | null;
  imageUrl: string | null;
  marketCents: number | null;
  priceDate: string | null;
  /** True when marketCents comes from a series made up for a demo; null when unpriced. */
  priceSynthetic: boolean | null;
}

export interface FigureSummary {
  entity: 'figure';
  id: string;
  name: string;
  rarity: FigureRarity | null;
  series: { id: string; name: string | null };
  imageUrl: string | null;
  marketCents: number | null;
  priceDate: string | null;
  /** True when marketCents comes from a series made up for a demo; null when unpriced. */
  priceSynthetic: boolean | null;
}

export type EntitySummary = CardSummary | FigureSummary;

export interface PriceIndex {
  card: PriceLookup;
  figure: PriceLookup;
}

/** What a summary needs besides the record itself. */
export interface SummaryContext {
  /** Keyed `setMapKey(game, code)`. */
  sets: ReadonlyMap<string, SetRecord>;
  series: ReadonlyMap<string, FigureSeriesRecord>;
  prices: PriceIndex;
}

/** The whole catalog by id: what the feeds (trending, recent, sparklines, binders) walk. */
export interface CatalogIndex extends SummaryContext {
  cards: ReadonlyMap<string, CardRecord>;
  figures: ReadonlyMap<string, FigureRecord>;
  /** The 30 recent days of the entities the sparklines feed shows (discover-sparklines.ts), by `sparklineKey`. */
  sparklinePoints: ReadonlyMap<string, readonly (number | null)[]>;
}

/**
 * The catalog's cards and figures in its order, with their prices by position: the feeds that walk
 * every entity (trending, discover sets, sparklines, the summary) and the grouped pages read a price
 * by position instead of looking each id up in a million-entry map once per document kind (at a
 * million cards about 1 µs a look-up, four to five look-ups per card; docs/benchmarks.md).
 */
export interface CatalogInOrder {
  /** Read field by field: a stored catalog's cards are columns, not records (source/card-table.ts). */
  cards: CardColumns;
  cardPrices: PricesInOrder;
  figures: readonly FigureRecord[];
  figurePrices: PricesInOrder;
}

const inOrderMemo = new WeakMap<CatalogIndex, CatalogInOrder>();

/** The index's CatalogInOrder, made once per index (every price must be set by then). */
export function catalogInOrder(index: CatalogIndex): CatalogInOrder {
  let order = inOrderMemo.get(index);
  if (order === undefined) {
    const cards = cardColumns(index.cards);
    const figures = [...index.figures.values()];
    order = {
      cards,
      cardPrices: pricesInOrder(index.prices.card, cards),
      figures,
      figurePrices: pricesInOrder(index.prices.figure, figures),
    };
    inOrderMemo.set(index, order);
  }
  return order;
}

const bySetMemo = new WeakMap<CatalogIndex, ReadonlyMap<string, readonly number[]>>();

/**
 * The positions (in CatalogInOrder) of each set's cards, by setMapKey, in catalog order; made once
 * per index (every price must be set by then). The set pages and the discover sets feed both group
 * the catalog by set: one pass over a million cards, and a key made only where the set changes from
 * one card to the next (a catalog lists a set's cards together), not a string per card.
 */
export function cardsBySet(index: CatalogIndex): ReadonlyMap<string, readonly number[]> {
  let bySet = bySetMemo.get(index);
  if (bySet === undefined) bySetMemo.set(index, (bySet = positionsBySet(catalogInOrder(index).cards)));
  return bySet;
}

/** The positions of each set's cards in `cards`, by setMapKey, in catalog order (cardsBySet). */
export function positionsBySet(cards: CardColumns): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  let list: number[] | null = null;
  let game = '';
  let code = '';
  for (let i = 0; i < cards.length; i++) {
    const cardGame = cards.game(i);
    const cardSet = cards.setCode(i);
    if (list === null || cardGame !== game || cardSet !== code) {
      game = cardGame;
      code = cardSet;
      const key = setMapKey(cardGame, cardSet);
      list = groups.get(key) ?? null;
      if (list === null) groups.set(key, (list = []));
    }
    list.push(i);
  }
  return groups;
}

function pricesInOrder(prices: PriceLookup, records: readonly { id: string }[] | CardColumns): PricesInOrder {
  // The columns themselves: a price table made with them reads by position (compile/price-table.ts).
  if (!Array.isArray(records) && prices.inOrder !== undefined) return prices.inOrder(records as CardColumns);
  const ids = Array.isArray(records) ? records.map((r) => r.id) : Array.from({ length: records.length }, (_, i) => (records as CardColumns).id(i));
  if (prices.inOrder !== undefined) return prices.inOrder(ids);
  const at = ids.map((id) => prices.get(id));
  return { get: (i) => at[i], has: (i) => at[i] !== undefined };
}

/** A card with its price summary (null when it has no price). */
export interface PricedCard {
  card: CardRecord;
  summary: LatestPrice | null;
}

export interface PricedFigure {
  figure: FigureRecord;
  summary: LatestPrice | null;
}

export const setMapKey = (game: Game, code: string) => `${game}/${code}`;

/**
 * The card summary; `set` is null when the set record is missing (its name is then null).
 * Built by a class whose fields are declared in sorted key order (its `set` too), marked on its
 * prototype (codec.ts KEYS_IN_ORDER): stableJson writes a page of them in one native call without
 * checking each one's keys (test/compiler/render/summaries-order.test.ts keeps the order honest).
 * toEqual compares them with object literals as usual (it ignores prototypes).
 */
export function cardSummary(card: CardRecord, set: SetRecord | null | undefined, price: LatestPrice | null | undefined): CardSummary {
  return new OrderedCardSummary(card, set, price);
}

class OrderedCardSummary implements CardSummary {
  artist: string | null;
  entity: 'card' = 'card';
  game: Game;
  id: string;
  imageUrl: string | null;
  marketCents: number | null;
  name: string;
  number: string;
  priceDate: string | null;
  priceSynthetic: boolean | null;
  rarity: string | null;
  set: { code: string; name: string | null };

  constructor(card: CardRecord, set: SetRecord | null | undefined, price: LatestPrice | null | undefined) {
    this.artist = card.artist;
    this.game = card.game;
    this.id = card.id;
    this.imageUrl = card.imageUrl;
    this.marketCents = price?.lastCents ?? null;
    this.name = card.name;
    this.number = card.number;
    this.priceDate = price ? toTimestamp(price.lastDate) : null;
    this.priceSynthetic = price ? price.synthetic : null;
    this.rarity = card.rarity;
    this.set = { code: card.setCode, name: set?.name ?? null };
  }
}

export function figureSummary(
  figure: FigureRecord, series: FigureSeriesRecord | null | undefined, price: LatestPrice | null | undefined,
): FigureSummary {
  return new OrderedFigureSummary(figure, series, price);
}

class OrderedFigureSummary implements FigureSummary {
  entity: 'figure' = 'figure';
  id: string;
  imageUrl: string | null;
  marketCents: number | null;
  name: string;
  priceDate: string | null;
  priceSynthetic: boolean | null;
  rarity: FigureRarity | null;
  series: { id: string; name: string | null };

  constructor(figure: FigureRecord, series: FigureSeriesRecord | null | undefined, price: LatestPrice | null | undefined) {
    this.id = figure.id;
    this.imageUrl = figure.imageUrl;
    this.marketCents = price?.lastCents ?? null;
    this.name = figure.name;
    this.priceDate = price ? toTimestamp(price.lastDate) : null;
    this.priceSynthetic = price ? price.synthetic : null;
    this.rarity = figure.rarity;
    this.series = { id: figure.seriesId, name: series?.name ?? null };
  }
}

for (const ordered of [OrderedCardSummary, OrderedFigureSummary]) Object.defineProperty(ordered.prototype, KEYS_IN_ORDER, { value: true });

export function summarizeCard(card: CardRecord, ctx: SummaryContext): CardSummary {
  return cardSummary(card, ctx.sets.get(setMapKey(card.game, card.setCode)), ctx.prices.card.get(card.id));
}

export function summarizeFigure(figure: FigureRecord, ctx: SummaryContext): FigureSummary {
  return figureSummary(figure, ctx.series.get(figure.seriesId), ctx.prices.figure.get(figure.id));
}

/** A binder item as a summary, or null when its card/figure is not in the catalog. */
export function summarizeItem(item: BinderItem, index: CatalogIndex): EntitySummary | null {
  if (item.entity === 'card') {
    const card = index.cards.get(item.id);
    return card ? summarizeCard(card, index) : null;
  }
  const figure = index.figures.get(item.id);
  return figure ? summarizeFigure(figure, index) : null;
}

/** The first `limit` items of a binder that are in the catalog (unknown ones are skipped). */
export function summarizeItems(items: BinderItem[], index: CatalogIndex, limit = Infinity): EntitySummary[] {
  const out: EntitySummary[] = [];
  for (const item of items) {
    if (out.length >= limit) break;
    const summary = summarizeItem(item, index);
    if (summary) out.push(summary);
  }
  return out;
}
