/**
 * The card document (`v1/cards/<id>/<range>.json.gz`, kind `card`): one printing with its set, its
 * current price in USD and the alternate currencies, and the price history of one range. Pure:
 * records in, envelope out; `asOf` is the last price date (or addedAt for an unpriced card), so an
 * unchanged card renders to identical bytes on every compile. Fields: docs/documents-entities.md.
 *
 * @example
 *   const fx = createFxLookup(fxRates);
 *   renderCard({ card, set, prices: series, fx }, '3mo')   // Envelope<CardDocument>, data.range.name === '3mo'
 *   for (const [range, doc] of renderCardRanges({ card, set, prices: series, fx })) {
 *     write(cardKey(card.id, range), encodeDocument(doc));
 *   }
 */
import { stableJson } from '../../snapshots/codec.js';
import { envelope, toTimestamp, toTimestampOrNull, type Envelope } from '../../snapshots/envelope.js';
import { CatalogError } from '../../snapshots/errors.js';
import { slugify } from '../../snapshots/ids.js';
import { RANGES, type CardRecord, type Game, type PriceSeriesRecord, type Range, type SetRecord } from '../../snapshots/records.js';
import { NOT_CANONICAL, envelopeJson, fxJson, historyJson, historyJsonOf, pricesJson, str } from './entity-json.js';
import { marketBlocks, type FxBlock, type MarketPrices } from './price-block.js';
import { MAX_POINTS, dailyPrices, historyBlock, priceWindow, windowAggregates, type DailyPrices, type HistoryBlock } from './price-history.js';
import { isSynthetic, summarizeDaily } from './price-summary.js';
import type { FxLookup } from './types.js';

export interface CardDocument {
  id: string;
  game: Game;
  name: string;
  number: string;
  rarity: string | null;
  imageUrl: string | null;
  releasedAt: string | null;
  addedAt: string;
  oracleId: string | null;
  artist: { name: string; slug: string } | null;
  set: { game: Game; code: string; name: string; releasedAt: string | null };
  prices: MarketPrices | null;
  fx: FxBlock | null;
  range: HistoryBlock;
}

export interface CardInput {
  card: CardRecord;
  set: SetRecord;
  /** The card's daily series, or null when it has no price line. */
  prices: PriceSeriesRecord | null;
  fx: FxLookup;
}

export function renderCard(input: CardInput, range: Range): Envelope<CardDocument> {
  const shared = prepareCard(input);
  return cardEnvelope(shared, range);
}

/** All ranges of RANGES, in that order; the series is parsed and priced once for all of them. */
export function renderCardRanges(input: CardInput): Map<Range, Envelope<CardDocument>> {
  const shared = prepareCard(input);
  const docs = new Map<Range, Envelope<CardDocument>>();
  for (const range of RANGES) docs.set(range, cardEnvelope(shared, range));
  return docs;
}

/**
 * The canonical JSON (stableJson) of every range of RANGES, in that order, written directly: the
 * text before and after the range block is the same in all five documents, so it is made once per
 * card (entity-json.ts says why and how it stays byte-identical to stableJson).
 */
export function renderCardRangesJson(input: CardInput): string[] {
  const { daily, asOf, base } = prepareBase(input);
  try {
    const [head, tail] = envelopeJson('card', toTimestamp(asOf));
    const artist = base.artist === null ? 'null' : `{"name":${str(base.artist.name)},"slug":${str(base.artist.slug)}}`;
    const set = base.set;
    const before =
      `${head}{"addedAt":${str(base.addedAt)},"artist":${artist},"fx":${fxJson(base.fx)},"game":${str(base.game)},"id":${str(base.id)},` +
      `"imageUrl":${str(base.imageUrl)},"name":${str(base.name)},"number":${str(base.number)},"oracleId":${str(base.oracleId)},` +
      `"prices":${pricesJson(base.prices)},"range":`;
    const after =
      `,"rarity":${str(base.rarity)},"releasedAt":${str(base.releasedAt)},` +
      `"set":{"code":${str(set.code)},"game":${str(set.game)},"name":${str(set.name)},"releasedAt":${str(set.releasedAt)}}}${tail}`;
    const fixedBytes = Buffer.byteLength(before) + Buffer.byteLength(after);
    const maxPoints = daily === null ? MAX_POINTS : pointBudget(daily, (range) => fixedBytes + Buffer.byteLength(historyJson(range)));
    return RANGES.map((range) => before + historyJsonOf(daily, range, maxPoints) + after);
  } catch (err) {
    if (err !== NOT_CANONICAL) throw err;
    const shared = prepareCard(input);
    return RANGES.map((range) => stableJson(cardEnvelope(shared, range)));
  }
}

/** API.md §3: a card document stays within about 2-5 KB of JSON at every range. */
export const CARD_MAX_BYTES = 5 * 1024;
/** Room left for what varies between ranges besides the points (resolution name, aggregate digits). */
const RANGE_SLACK_BYTES = 48;

interface PreparedCard {
  daily: DailyPrices | null;
  asOf: string;
  base: Omit<CardDocument, 'range'>;
  /** Most points a range may hold and keep the document within CARD_MAX_BYTES. */
  maxPoints: number;
}

function prepareCard(input: CardInput): PreparedCard {
  const { daily, asOf, base } = prepareBase(input);
  // JSON.stringify: same length as the stable encoding (only the key order differs), and faster.
  const bytesWith = (range: HistoryBlock) => Buffer.byteLength(JSON.stringify(envelope('card', asOf, { ...base, range })));
  return { daily, asOf, base, maxPoints: daily === null ? MAX_POINTS : pointBudget(daily, bytesWith) };
}

function prepareBase({ card, set, prices, fx }: CardInput): Omit<PreparedCard, 'maxPoints'> {
  if (prices !== null && (prices.entity !== 'card' || prices.id !== card.id)) {
    throw new CatalogError('internal', `price series ${prices.entity}:${prices.id} given to card ${card.id}`, { cardId: card.id });
  }
  if (set.game !== card.game || set.code !== card.setCode) {
    throw new CatalogError('internal', `set ${set.game}/${set.code} given to card ${card.id} of ${card.game}/${card.setCode}`, { cardId: card.id });
  }
  const daily = prices === null ? null : dailyPrices(prices);
  const summary = prices === null || daily === null ? null : summarizeDaily(daily, isSynthetic(prices));
  const market = marketBlocks(summary, fx);
  const asOf = summary === null ? card.addedAt : summary.lastDate;
  const base: Omit<CardDocument, 'range'> = {
    id: card.id,
    game: card.game,
    name: card.name,
    number: card.number,
    rarity: card.rarity,
    imageUrl: card.imageUrl,
    releasedAt: toTimestampOrNull(card.releasedAt),
    addedAt: toTimestamp(card.addedAt),
    oracleId: card.oracleId,
    artist: card.artist === null ? null : { name: card.artist, slug: slugify(card.artist) },
    set: { game: set.game, code: set.code, name: set.name, releasedAt: toTimestampOrNull(set.releasedAt) },
    prices: market.prices,
    fx: market.fx,
  };
  return { daily, asOf, base };
}

/**
 * 3mo keeps 91 daily points, which is most of the budget; a card with unusually long names or URLs
 * and 7-digit prices could pass 5 KB. Measuring the document without points once per card, and
 * sizing a point by the widest price, lets every range widen its buckets before it would.
 * `bytesWith` measures the card's document with a given range block (either encoding: the length is
 * the same in any key order).
 */
function pointBudget(daily: DailyPrices, bytesWith: (range: HistoryBlock) => number): number {
  const aggregates = windowAggregates(daily, priceWindow(daily, null));
  const emptyBytes = bytesWith({ name: 'all', from: '', to: '', resolution: 'quarter', points: [], aggregates }) + 2 * 24 + RANGE_SLACK_BYTES;
  // `["YYYY-MM-DDT00:00:00.000Z",<cents>],` is 30 characters plus the digits.
  const pointBytes = 30 + Math.max(String(aggregates.minCents).length, String(aggregates.maxCents).length);
  return Math.max(1, Math.min(MAX_POINTS, Math.floor((CARD_MAX_BYTES - emptyBytes) / pointBytes)));
}

function cardEnvelope(shared: PreparedCard, range: Range): Envelope<CardDocument> {
  return envelope('card', shared.asOf, { ...shared.base, range: historyBlock(shared.daily, range, shared.maxPoints) });
}
