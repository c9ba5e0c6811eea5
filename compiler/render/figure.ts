/**
 * The figure document (`v1/figures/<id>.json.gz`, kind `figure`): one figure with its series, its
 * current price block (same shape as a card's), one year of weekly history (the card `12mo` rules)
 * and, apart, the aggregates of the last 30 days. Pure; `asOf` is the last price date, or addedAt
 * for an unpriced figure. Fields: docs/documents-entities.md.
 *
 * @example
 *   renderFigure({ figure, series, prices: priceSeries, fx: createFxLookup(fxRates) })
 *   // Envelope<FigureDocument>: data.history.resolution === 'week', data.aggregates30d.minCents ...
 */
import { stableJson } from '../../snapshots/codec.js';
import { envelope, toTimestamp, toTimestampOrNull, type Envelope } from '../../snapshots/envelope.js';
import { CatalogError } from '../../snapshots/errors.js';
import type { FigureRarity, FigureRecord, FigureSeriesRecord, PriceSeriesRecord } from '../../snapshots/records.js';
import { NOT_CANONICAL, aggregatesJson, envelopeJson, fxJson, historyJson, pricesJson, str } from './entity-json.js';
import { marketBlocks, type FxBlock, type MarketPrices } from './price-block.js';
import { NO_AGGREGATES, dailyPrices, historyBlock, priceWindow, windowAggregates, type HistoryBlock, type PriceAggregates } from './price-history.js';
import { isSynthetic, summarizeDaily } from './price-summary.js';
import type { FxLookup } from './types.js';

/** The figure history follows the card `12mo` range; the 30-day aggregates come apart. */
export const FIGURE_HISTORY_RANGE = '12mo';
const AGGREGATES_DAYS = 30;

export interface FigureDocument {
  id: string;
  name: string;
  rarity: FigureRarity | null;
  imageUrl: string | null;
  releasedAt: string | null;
  addedAt: string;
  series: { id: string; name: string };
  prices: MarketPrices | null;
  fx: FxBlock | null;
  history: HistoryBlock;
  aggregates30d: PriceAggregates;
}

export interface FigureInput {
  figure: FigureRecord;
  series: FigureSeriesRecord;
  prices: PriceSeriesRecord | null;
  fx: FxLookup;
}

export function renderFigure({ figure, series, prices, fx }: FigureInput): Envelope<FigureDocument> {
  if (prices !== null && (prices.entity !== 'figure' || prices.id !== figure.id)) {
    throw new CatalogError('internal', `price series ${prices.entity}:${prices.id} given to figure ${figure.id}`, { figureId: figure.id });
  }
  if (series.id !== figure.seriesId) {
    throw new CatalogError('internal', `series ${series.id} given to figure ${figure.id} of series ${figure.seriesId}`, { figureId: figure.id });
  }
  const daily = prices === null ? null : dailyPrices(prices);
  const summary = prices === null || daily === null ? null : summarizeDaily(daily, isSynthetic(prices));
  const market = marketBlocks(summary, fx);
  return envelope('figure', summary === null ? figure.addedAt : summary.lastDate, {
    id: figure.id,
    name: figure.name,
    rarity: figure.rarity,
    imageUrl: figure.imageUrl,
    releasedAt: toTimestampOrNull(figure.releasedAt),
    addedAt: toTimestamp(figure.addedAt),
    series: { id: series.id, name: series.name },
    prices: market.prices,
    fx: market.fx,
    history: historyBlock(daily, FIGURE_HISTORY_RANGE),
    aggregates30d: daily === null ? { ...NO_AGGREGATES } : windowAggregates(daily, priceWindow(daily, AGGREGATES_DAYS)),
  });
}

/** stableJson(renderFigure(input)), written directly (entity-json.ts says why and how it stays byte-identical). */
export function renderFigureJson(input: FigureInput): string {
  const doc = renderFigure(input);
  try {
    const d = doc.data;
    const [head, tail] = envelopeJson('figure', doc.asOf);
    return (
      `${head}{"addedAt":${str(d.addedAt)},"aggregates30d":${aggregatesJson(d.aggregates30d)},"fx":${fxJson(d.fx)},` +
      `"history":${historyJson(d.history)},"id":${str(d.id)},"imageUrl":${str(d.imageUrl)},"name":${str(d.name)},` +
      `"prices":${pricesJson(d.prices)},"rarity":${str(d.rarity)},"releasedAt":${str(d.releasedAt)},` +
      `"series":{"id":${str(d.series.id)},"name":${str(d.series.name)}}}${tail}`
    );
  } catch (err) {
    if (err !== NOT_CANONICAL) throw err;
    return stableJson(doc);
  }
}
