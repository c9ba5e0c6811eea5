/**
 * The canonical JSON text (snapshots/codec.ts `stableJson`) of the list pages made of card summaries,
 * a set's and an artist's, written directly with the keys in sorted order by construction, as
 * entity-json.ts does for card documents. An incremental compile after a 1% price change writes most
 * set pages again (at a million cards 9,501 of 13,047, with 730,000 summaries): building each summary
 * as an object that `stableJson` then walks, checks and serializes was about 3.6 s of the main thread
 * (docs/benchmarks.md).
 *
 * The object renderers (set-pages.ts, artist-pages.ts) stay the reference: the same pages, the same
 * order, the same asOf; test/compiler/render/list-json.test.ts compares the bytes of both paths. A
 * value of a type the record types do not allow throws NOT_CANONICAL, and the caller renders the
 * objects instead (`null` from cardPagesJson).
 *
 * @example
 *   const pages = cardPagesJson('set', ordered.cards, () => set, ordered.asOf) ?? renderOrderedSetPages(set, ordered);
 *   sink.putPages(keyOf, inputs, () => pages);   // the sink writes a CanonicalJson's text as it is
 */
import { API_VERSION, SCHEMA_VERSION, toTimestamp, type DocumentKind } from '../../snapshots/envelope.js';
import type { CardRecord, SetRecord } from '../../snapshots/records.js';
import { STORED_PAGE_SIZE } from '../../snapshots/keys.js';
import { bool, NOT_CANONICAL, num, str } from './entity-json.js';
import { pageCount } from './paginate.js';
import type { PricedCard } from './summaries.js';
import type { LatestPrice } from './types.js';

/** A document already written as its canonical JSON: the document sink writes the text as it is. */
export class CanonicalJson {
  constructor(readonly json: string) {}
}

/** stableJson(cardSummary(card, set, price)), written directly. Throws NOT_CANONICAL for a value of another type. */
export function cardSummaryJson(card: CardRecord, set: SetRecord | null | undefined, price: LatestPrice | null | undefined): string {
  const priced = price !== null && price !== undefined;
  return (
    `{"artist":${str(card.artist)},"entity":"card","game":${str(card.game)},"id":${str(card.id)},"imageUrl":${str(card.imageUrl)}` +
    `,"marketCents":${priced ? num(price.lastCents) : 'null'},"name":${str(card.name)},"number":${str(card.number)}` +
    `,"priceDate":${priced ? str(toTimestamp(price.lastDate)) : 'null'},"priceSynthetic":${priced ? bool(price.synthetic) : 'null'}` +
    `,"rarity":${str(card.rarity)},"set":{"code":${str(card.setCode)},"name":${str(set?.name ?? null)}}}`
  );
}

/**
 * stableJson of each page `paginate(kind, cards as summaries, asOf)` makes, the cards already in page
 * order, each card's set from `setOf`; null when a value is not of its record type (render the
 * objects instead).
 */
export function cardPagesJson(
  kind: DocumentKind, cards: readonly PricedCard[], setOf: (card: CardRecord) => SetRecord | null | undefined, asOf: string | null,
): CanonicalJson[] | null {
  try {
    const head = `{"apiVersion":${str(API_VERSION)},"asOf":${str(asOf === null ? null : toTimestamp(asOf))},"data":[`;
    const pages: CanonicalJson[] = [];
    const total = cards.length;
    const totalPages = pageCount(total);
    for (let p = 0; p < totalPages; p++) {
      let json = head;
      const end = Math.min(total, (p + 1) * STORED_PAGE_SIZE);
      for (let i = p * STORED_PAGE_SIZE; i < end; i++) {
        const { card, summary } = cards[i];
        json += (i === p * STORED_PAGE_SIZE ? '' : ',') + cardSummaryJson(card, setOf(card), summary);
      }
      const page = `{"hasMore":${bool(p + 1 < totalPages)},"limit":${num(STORED_PAGE_SIZE)},"page":${num(p + 1)},"total":${num(total)},"totalPages":${num(totalPages)}}`;
      json += `],"kind":${str(kind)},"page":${page},"schemaVersion":${num(SCHEMA_VERSION)},"warnings":[]}`;
      pages.push(new CanonicalJson(json));
    }
    return pages;
  } catch (err) {
    if (err === NOT_CANONICAL) return null;
    throw err;
  }
}
