/**
 * The oracle document (`v1/oracle/<id>.json.gz`, kind `oracle`): one MTG rules object and every
 * printing of it, oldest set first, with each printing's current price and price aggregates over the
 * priced printings. It reads LatestPrice, not series: the compile keeps only summaries once the
 * card documents are written. `asOf` is the latest price date among the printings (or the latest
 * addedAt when none is priced). Fields: docs/documents-entities.md.
 *
 * @example
 *   renderOracle({ oracleId: 'b7c1…', printings: [{ card, set, summary: summarizePrices(series) }, ...] })
 *   // Envelope<OracleDocument>: data.printingsCount, data.printings[], data.aggregates.medianCents ...
 */
import { envelope, toTimestamp, toTimestampOrNull, type Envelope } from '../../snapshots/envelope.js';
import { CatalogError } from '../../snapshots/errors.js';
import type { CardRecord, Game, SetRecord } from '../../snapshots/records.js';
import { compareAscNullsLast, compareText } from './order.js';
import type { LatestPrice } from './types.js';

export interface OraclePrinting {
  id: string;
  name: string;
  set: { code: string; name: string; releasedAt: string | null };
  number: string;
  rarity: string | null;
  artist: string | null;
  imageUrl: string | null;
  /** Current USD price of this printing, or null when unpriced. */
  marketCents: number | null;
  priceDate: string | null;
  /** True when marketCents comes from a series made up for a demo; null when unpriced (as in list summaries). */
  priceSynthetic: boolean | null;
}

export interface PricedRef {
  id: string;
  marketCents: number;
  /** The printing's priceSynthetic: the cheapest or highest price may be a made-up one. */
  priceSynthetic: boolean;
}

export interface OracleDocument {
  id: string;
  /** Name of the most recent printing (newest set), so errata and renames show. */
  name: string;
  game: Game;
  printingsCount: number;
  printings: OraclePrinting[];
  aggregates: {
    pricedPrintings: number;
    cheapest: PricedRef | null;
    /** Median current price of the priced printings; an even count takes the rounded mean of the middle two. */
    medianCents: number | null;
    highest: PricedRef | null;
  };
}

export interface OracleInput {
  oracleId: string;
  printings: { card: CardRecord; set: SetRecord; summary: LatestPrice | null }[];
}

export function renderOracle({ oracleId, printings }: OracleInput): Envelope<OracleDocument> {
  if (printings.length === 0) throw new CatalogError('internal', `oracle ${oracleId} rendered without printings`, { oracleId });
  // Set release dates are YYYY-MM-DD, so string order is date order (unknown dates last); id breaks
  // ties for stable bytes.
  const sorted = [...printings].sort((a, b) =>
    compareAscNullsLast(a.set.releasedAt, b.set.releasedAt) || compareText(a.card.id, b.card.id));
  const newest = sorted[sorted.length - 1].card;

  let asOf: string | null = null;
  let latestAdded = sorted[0].card.addedAt;
  const priced: PricedRef[] = [];
  const rows: OraclePrinting[] = sorted.map(({ card, set, summary }) => {
    if (card.addedAt > latestAdded) latestAdded = card.addedAt;
    if (summary !== null) {
      if (asOf === null || summary.lastDate > asOf) asOf = summary.lastDate;
      priced.push({ id: card.id, marketCents: summary.lastCents, priceSynthetic: summary.synthetic });
    }
    // Keys in sorted order: stableJson then serializes the printings without copying them (codec.ts).
    return {
      artist: card.artist,
      id: card.id,
      imageUrl: card.imageUrl,
      marketCents: summary === null ? null : summary.lastCents,
      name: card.name,
      number: card.number,
      priceDate: summary === null ? null : toTimestamp(summary.lastDate),
      priceSynthetic: summary === null ? null : summary.synthetic,
      rarity: card.rarity,
      set: { code: set.code, name: set.name, releasedAt: toTimestampOrNull(set.releasedAt) },
    };
  });

  return envelope('oracle', asOf ?? latestAdded, {
    id: oracleId,
    name: newest.name,
    game: newest.game,
    printingsCount: rows.length,
    printings: rows,
    aggregates: priceAggregates(priced),
  });
}

function priceAggregates(priced: PricedRef[]): OracleDocument['aggregates'] {
  if (priced.length === 0) return { pricedPrintings: 0, cheapest: null, medianCents: null, highest: null };
  // Ascending price then id, so ties on either end go to the lower id (stable bytes across compiles).
  const byPrice = [...priced].sort((a, b) => a.marketCents - b.marketCents || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const n = byPrice.length;
  const mid = n >> 1;
  const median = n % 2 === 1 ? byPrice[mid].marketCents : Math.round((byPrice[mid - 1].marketCents + byPrice[mid].marketCents) / 2);
  const top = byPrice[n - 1].marketCents;
  const highest = byPrice.find((p) => p.marketCents === top) as PricedRef;
  return {
    pricedPrintings: n,
    cheapest: { id: byPrice[0].id, marketCents: byPrice[0].marketCents, priceSynthetic: byPrice[0].priceSynthetic },
    medianCents: median,
    highest: { id: highest.id, marketCents: highest.marketCents, priceSynthetic: highest.priceSynthetic },
  };
}
