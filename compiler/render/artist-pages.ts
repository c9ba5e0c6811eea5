/**
 * `/v1/artists/:slug`: every printing by one artist, any game, newest release first.
 */
import type { Envelope } from '../../snapshots/envelope.js';
import { slugify } from '../../snapshots/ids.js';
import type { CardRecord, SetRecord } from '../../snapshots/records.js';
import { laterOf } from './as-of.js';
import { compareDescNullsLast, compareText } from './order.js';
import { paginate } from './paginate.js';
import { cardSummary, setMapKey, type CardSummary, type PricedCard } from './summaries.js';

export interface ArtistGroup<T = CardRecord> {
  /** The display name: the most frequent spelling among the merged names (ties: code-unit order). */
  name: string;
  cards: T[];
}

/**
 * slugify with a memo for one pass over the catalog: 100,000 cards name a few thousand artists, and
 * a slug (Unicode normalization and three regular expressions) costs more than the rest of the pass.
 */
export function artistSlugs(): (name: string) => string {
  const memo = new Map<string, string>();
  return (name) => {
    let slug = memo.get(name);
    if (slug === undefined) memo.set(name, (slug = slugify(name)));
    return slug;
  };
}

/**
 * Cards grouped by artist slug. Names that slug the same ("Hervé X" and "Herve X") are one artist,
 * because they would share one URL; cards without an artist are left out. The map iterates in slug
 * order so whatever the caller does with it is deterministic.
 */
export function groupArtists(cards: Iterable<CardRecord>): Map<string, ArtistGroup> {
  return groupByArtist(cards, (card) => card.artist);
}

/**
 * groupArtists of any items that stand for cards (the compile groups the catalog's positions:
 * summaries.ts CatalogInOrder), `artistOf` giving each one's card's artist.
 */
export function groupByArtist<T>(items: Iterable<T>, artistOf: (item: T) => string | null): Map<string, ArtistGroup<T>> {
  type Group = { spellings: Map<string, number>; cards: T[] };
  const groups = new Map<string, Group>();
  // One look-up per card, by the name as spelled: its group and how many cards spell it so (a
  // million cards name some 40,000 artists; a slug, a group and a count looked up per card were four).
  const bySpelling = new Map<string, { group: Group; count: number }>();
  for (const item of items) {
    const artist = artistOf(item);
    if (artist === null) continue;
    let spelling = bySpelling.get(artist);
    if (spelling === undefined) {
      const slug = slugify(artist);
      let group = groups.get(slug);
      if (!group) {
        group = { spellings: new Map(), cards: [] };
        groups.set(slug, group);
      }
      bySpelling.set(artist, (spelling = { group, count: 0 }));
    }
    spelling.group.cards.push(item);
    spelling.count++;
  }
  for (const [name, { group, count }] of bySpelling) group.spellings.set(name, count);
  const out = new Map<string, ArtistGroup<T>>();
  for (const slug of [...groups.keys()].sort(compareText)) {
    const group = groups.get(slug)!;
    let name = '';
    let best = -1;
    for (const [spelling, count] of group.spellings) {
      if (count > best || (count === best && compareText(spelling, name) < 0)) {
        name = spelling;
        best = count;
      }
    }
    out.set(slug, { name, cards: group.cards });
  }
  return out;
}

/** An artist's printings in page order, and the asOf every page of the list carries. */
export interface OrderedArtist<T extends PricedCard = PricedCard> {
  cards: T[];
  asOf: string | null;
}

/**
 * Items sorted by release date desc, then id.
 * asOf: the latest of the printings' addedAt and price dates.
 */
export function orderArtistCards<T extends PricedCard>(printings: readonly T[]): OrderedArtist<T> {
  const cards = [...printings].sort(
    (x, y) => compareDescNullsLast(x.card.releasedAt, y.card.releasedAt) || compareText(x.card.id, y.card.id),
  );
  let asOf: string | null = null;
  for (const p of cards) asOf = laterOf(laterOf(asOf, p.card.addedAt), p.summary?.lastDate);
  return { cards, asOf };
}

/** The pages of an artist's printings already put in order (orderArtistCards). `sets` (keyed `setMapKey`) names each card's set. */
export function renderOrderedArtistPages(ordered: OrderedArtist, sets: ReadonlyMap<string, SetRecord>): Envelope<CardSummary[]>[] {
  return paginate('artist', ordered.cards.map((p) => cardSummary(p.card, sets.get(setMapKey(p.card.game, p.card.setCode)), p.summary)), ordered.asOf);
}

/**
 * An artist's pages: orderArtistCards, then renderOrderedArtistPages.
 * `slug` and `name` identify the artist for the caller's key; the items already carry the artist.
 */
export function renderArtistPages(
  _slug: string, _name: string, printings: PricedCard[], sets: ReadonlyMap<string, SetRecord>,
): Envelope<CardSummary[]>[] {
  return renderOrderedArtistPages(orderArtistCards(printings), sets);
}
