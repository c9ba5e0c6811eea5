/**
 * Renders every document that aggregates many records (oracle concepts, set/artist/series pages,
 * pull-stats, trending, recent, discover feeds, showcases, the catalog summary) and hands each to
 * the sink at the key that mirrors its URL. Runs on the main thread after the entity phase, from
 * the loaded catalog and the per-entity LatestPrice only (and the few sparklines' recent days).
 */
import type { LoadedCatalog } from '../source/index.js';
import type { CardColumns } from '../source/card-table.js';
import type { CardRecord } from '../../snapshots/records.js';
import type { LatestPrice } from '../render/types.js';
import { laterOf } from '../render/as-of.js';
import { listPageKey, oracleKey, pullStatsKey, showcaseKey, summaryKey, type ListFamily } from '../../snapshots/keys.js';
import { toTimestamp, type Envelope } from '../../snapshots/envelope.js';
import { cardSummary, catalogInOrder, setMapKey, type CatalogIndex, type PricedCard, type PricedFigure } from '../render/summaries.js';
import { renderOracle } from '../render/oracle.js';
import { renderOrderedSetPages, type OrderedSet } from '../render/set-pages.js';
import { pageCount, pageSlices } from '../render/paginate.js';
import { artistSlugs, renderOrderedArtistPages, type OrderedArtist } from '../render/artist-pages.js';
import { renderSeriesPages } from '../render/series-pages.js';
import { pendingPullStats } from '../render/pull-stats.js';
import { renderTrending } from '../render/trending.js';
import { renderRecent } from '../render/recent.js';
import { renderDiscoverSets } from '../render/discover-sets.js';
import { renderDiscoverUsers } from '../render/discover-users.js';
import { renderDiscoverBinders } from '../render/discover-binders.js';
import { renderDiscoverActivity } from '../render/discover-activity.js';
import { renderDiscoverSparklines } from '../render/discover-sparklines.js';
import { renderShowcases, showcaseOwners, type ShowcaseDocuments } from '../render/showcase.js';
import { isPublishedBinder } from '../render/privacy.js';
import { renderCatalogSummary, type PriceRange } from '../render/summary.js';
import { compareText } from '../render/order.js';
import type { DocumentSink, EntityRef, ListPage } from './document-sink.js';
import { DOCUMENT_RANGES } from '../bulk/document-ranges.js';
import type { ProgressSink } from './progress.js';
import type { PriceSummaries } from './index.js';
import type { CardGroups } from './card-groups.js';

/** A card with its position in the catalog's order (its price and token are read by it). */
type PricedAt = PricedCard & { at: number };

/**
 * A PricedAt whose record is made only when it is read: a set's or an artist's cards are ordered and
 * their pages' inputs made from the columns (render/column-order.ts), and a record is needed only for
 * a summary written again (a 1% price change writes few of them).
 */
class LazyPriced implements PricedAt {
  #card: CardRecord | null = null;
  constructor(private readonly columns: CardColumns, readonly at: number, readonly summary: LatestPrice | null) {}
  get card(): CardRecord {
    return (this.#card ??= this.columns.record(this.at));
  }
}

/** The oracle concepts' key range: only oracle documents are in it. */
const ORACLE_RANGE = DOCUMENT_RANGES.oracle;

/**
 * Key ranges that hold one kind of list and nothing else (snapshots/keys.ts): a set's pages, an
 * artist's, a figure series' (beside the figures' own documents, `v1/figures/<id>.json.gz`, which
 * sort before `v1/figures/series/`), and a user's showcase with its binder pages.
 */
const LIST_RANGES = {
  set: { from: 'v1/sets/', to: 'v1/sets0' },
  artist: { from: 'v1/artists/', to: 'v1/artists0' },
  series: { from: 'v1/figures/series/', to: 'v1/figures/series0' },
  user: { from: 'v1/u/', to: 'v1/u0' },
} as const;
type ListRange = keyof typeof LIST_RANGES;

export function catalogIndex(catalog: LoadedCatalog, prices: PriceSummaries): CatalogIndex {
  return {
    sets: catalog.setsByKey,
    series: catalog.figureSeries,
    prices: { card: prices.cards, figure: prices.figures },
    cards: catalog.cards,
    figures: catalog.figures,
    sparklinePoints: prices.sparklinePoints,
  };
}

/**
 * `unchangedCatalog`: the catalog files but prices and the compiler code are the previous snapshot's
 * (its stored catalog was taken, and its index was written by this code: code-version.ts). The documents made from
 * those alone (the pull-stats, the activity and users feeds) are then the previous snapshot's, kept
 * without walking the pull observations and activity events (at a million cards about 4 s of an
 * incremental compile) or rendering the users feed.
 *
 * So is every document made from a known group of entities none of which was rendered again this
 * compile (an entity is rendered again exactly when its input changed: entity-phase.ts): an oracle
 * concept, a set's, an artist's or a series' pages, a user's showcase and binder pages. They are kept
 * without computing their inputs (the groups come from the catalog, which is the previous one), so
 * the work follows the change: a 1% price change at a million cards touches about one oracle
 * concept in fifty.
 */
export async function renderAggregates(
  catalog: LoadedCatalog, prices: PriceSummaries, priceRange: PriceRange, sink: DocumentSink, progress: ProgressSink, groups: CardGroups, unchangedCatalog = false,
): Promise<void> {
  /** Lets the documents handed to the render threads come back when enough are waiting (document-sink.ts). */
  const breathe = async () => {
    if (sink.busy()) await sink.breathe();
  };
  const index = catalogIndex(catalog, prices);
  // The entities rendered again, when the rest of the catalog is the previous snapshot's; else null.
  const changed = unchangedCatalog ? { card: new Set(prices.rendered.card), figure: new Set(prices.rendered.figure) } : null;
  /** True when the catalog is the previous one and no entity of `refs()` was rendered again (refs made only then). */
  const unchanged = (refs: () => readonly EntityRef[]): boolean => changed !== null && refs().every((r) => !changed[r.entity].has(r.id));
  // The groups of cards (a set's, an oracle concept's, an artist's) that hold a card rendered again,
  // found from those cards (a 1% price change renders 1% of them): whether a group is unchanged is
  // then one look-up, not one per card of the catalog.
  const touched = changed === null ? null : touchedGroups(catalog, prices.rendered.card);
  let keptUnchanged = 0;
  // Documents made from unchanged entities are kept together, one statement per key range, once the
  // range's other documents are written (keepRange: the range holds nothing else, and the count of
  // its rows not written must be what is kept). At a million cards one look-up per list was about
  // 1.5 s (40,000 artist pages, 35,000 users). When the count differs, each is kept on its own, and
  // the ones the previous snapshot lacks are rendered (`render`).
  const deferred = new Map<ListRange, { count: number; keep: () => boolean; render: () => void }[]>();
  /** Defers keeping `count` documents of `range` when `unchanged`; false (nothing deferred) otherwise. */
  const keepLater = (range: ListRange, count: number, unchanged: boolean, keep: () => boolean, render: () => void): boolean => {
    if (!unchanged) return false;
    let list = deferred.get(range);
    if (!list) deferred.set(range, (list = []));
    list.push({ count, keep, render });
    progress.advance(count);
    return true;
  };
  /** keepLater for pages 1..pageCount(items) of one list. */
  const keepListLater = (range: ListRange, keyOf: (page: number) => string, items: number, unchanged: boolean, render: () => void): boolean =>
    keepLater(range, pageCount(items), unchanged, () => sink.keepList(keyOf, pageCount(items)), render);
  /** Keeps the documents deferred in `range`: in one statement, else one by one (rendering the missing). */
  const keepDeferred = async (range: ListRange) => {
    const list = deferred.get(range) ?? [];
    deferred.delete(range);
    const expected = list.reduce((n, d) => n + d.count, 0);
    if (expected === 0) return;
    const { from, to } = LIST_RANGES[range];
    await sink.settle();
    if (sink.keepRange(from, to, expected)) {
      keptUnchanged += expected;
      return;
    }
    for (const d of list) {
      if (d.keep()) keptUnchanged += d.count;
      else d.render();
    }
  };
  const putList = <T>(family: ListFamily, pages: Envelope<T[]>[]) => {
    pages.forEach((page, i) => sink.put(listPageKey(family, i + 1), page));
    progress.advance(pages.length);
  };
  // The cards are grouped by their position in the catalog's order, whose prices are read by
  // position (summaries.ts CatalogInOrder: one look-up by id per card for every group and feed).
  const { cards: cardAt, cardPrices, figures: figureAt, figurePrices } = catalogInOrder(index);
  const priced = (i: number): PricedAt => new LazyPriced(cardAt, i, cardPrices.get(i) ?? null);
  /** The latest of `asOf`, the cards' addedAt and their price dates, read from the columns. */
  const latestOfCards = (asOf: string | null, cards: readonly PricedAt[]): string | null => {
    for (const p of cards) asOf = laterOf(laterOf(asOf, cardAt.addedAt(p.at)), p.summary?.lastDate);
    return asOf;
  };
  // The cards rendered again this compile, by position: their summaries are the only ones on a page
  // that can differ from the previous snapshot's page of the same shape (a patch replaces just those:
  // document-sink.ts putPages). Null when there is no previous snapshot or most cards changed.
  const renderedAt = prices.rendered.card.length * 4 <= cardAt.length ? renderedPositions(cardAt, prices.rendered.card) : null;
  /** A card's token by position; an absent one (a card the entity phase has no input for) named by its id. */
  const tokenAt = (at: number): string => cardPrices.token?.(at) ?? sink.tokenOf({ entity: 'card', id: cardAt.id(at) });
  /**
   * The pages of a list of card summaries (`cards` in page order, the list's `asOf`), made from
   * `records` besides the cards: each page's input and shape, tagged `tag`, and its changed cards.
   * A page's input is made from its cards' tokens, which are made from their records (ids included),
   * so no id is made for it; nor for its shape when the catalog is the previous snapshot's (a previous
   * page at the same key has it then: putPages takes it from there).
   */
  const cardListPages = (tag: string, records: readonly unknown[], cards: readonly PricedAt[], asOf: string | null, summaryOf: (p: PricedAt) => unknown): ListPage[] => {
    const list = { asOf, total: cards.length };
    const stamped = asOf === null ? null : toTimestamp(asOf);
    return pageSlices(cards).map((slice, i) => {
      let changed: { at: number; id: string; item: () => unknown }[] | null = null;
      if (renderedAt !== null) {
        changed = [];
        for (let at = 0; at < slice.length; at++) {
          const p = slice[at];
          if (renderedAt[p.at] === 1) changed.push({ at, id: cardAt.id(p.at), item: () => summaryOf(p) });
        }
      }
      return {
        input: sink.pageInputOf(tag, [...records, list, i + 1], slice.map((p) => tokenAt(p.at))),
        shape: () => sink.shapeOf(tag, [...records, cards.length, i + 1], slice.map((p) => cardAt.id(p.at))),
        shapeIsPrevious: unchangedCatalog,
        asOf: stamped,
        changed,
      };
    });
  };

  // The cards grouped by set, artist and oracle concept, as positions in page order (card-groups.ts:
  // made from the catalog, or the previous compile's when the catalog is its). The price summaries
  // are made for the groups rendered only (at a million cards, a priced card for every card was about 1 s).
  const byOracle = groups.oracles;

  // An oracle document is made from its printings alone (their records, sets and prices), so it is
  // fingerprinted from theirs and rendered only when one of them changed (document-sink.ts). With an
  // unchanged catalog, one none of whose printings changed is kept (looked up many at a time).
  const putOracle = (oracleId: string, printings: readonly number[]) =>
    sink.putFromCards(oracleKey(oracleId), printings.map((i) => ({ id: cardAt.id(i), token: cardPrices.token?.(i) })), () =>
      renderOracle({
        oracleId,
        printings: printings.map((i) => {
          const c = cardAt.record(i);
          return { card: c, set: catalog.setsByKey.get(setMapKey(c.game, c.setCode))!, summary: cardPrices.get(i) ?? null };
        }),
      }));
  // The unchanged ones are the rest of the previous snapshot's oracle range, kept in one statement
  // once the others are written; one by one (looked up 256 at a time) if the count differs.
  const unchangedOracles: string[] = [];
  for (const [oracleId, printings] of byOracle) {
    progress.advance(1);
    if (touched !== null && !touched.oracles.has(oracleId)) unchangedOracles.push(oracleId);
    else {
      putOracle(oracleId, printings);
      await breathe();
    }
  }
  await sink.settle();
  if (unchangedOracles.length > 0 && sink.keepRange(ORACLE_RANGE.from, ORACLE_RANGE.to, unchangedOracles.length)) {
    keptUnchanged += unchangedOracles.length;
  } else {
    for (let i = 0; i < unchangedOracles.length; i += 256) {
      const ids = unchangedOracles.slice(i, i + 256);
      const missing = new Set(sink.keepAll(ids.map(oracleKey)));
      for (const oracleId of ids) if (missing.has(oracleKey(oracleId))) putOracle(oracleId, byOracle.get(oracleId)!);
      keptUnchanged += ids.length - missing.size;
    }
  }

  // A list made from a known group of entities is rendered only when its input changed (document-sink.ts).
  // Returns the number of pages (the caller counts them: not again when it renders a list it had deferred).
  const putListFrom = <T>(family: ListFamily, input: string, render: () => Envelope<T[]>[]): number =>
    sink.putPagesFrom((page) => listPageKey(family, page), input, render);

  // A set page's bytes are the set, the list's asOf and total, its number and its own cards, in page
  // order: it is written only when one of those changed (a 1% price change touches most sets, but
  // few of their pages).
  for (const set of catalog.sets) {
    const cards = groups.sets.get(setMapKey(set.game, set.code)) ?? [];
    const keyOf = (page: number) => listPageKey({ kind: 'set', game: set.game, code: set.code }, page);
    const render = () => {
      const inOrder = cards.map(priced);
      const ordered: OrderedSet<PricedAt> = { cards: inOrder, asOf: latestOfCards(set.releasedAt, inOrder) };
      const pages = cardListPages('set-page', [set], ordered.cards, ordered.asOf, (p) => cardSummary(p.card, set, p.summary));
      sink.putPages(keyOf, pages, () => renderOrderedSetPages(set, ordered));
      return pages.length;
    };
    if (!keepListLater('set', keyOf, cards.length, touched !== null && !touched.sets.has(setMapKey(set.game, set.code)), render)) {
      progress.advance(render());
      await breathe();
    }
  }
  await keepDeferred('set');

  const artists = groups.artists;
  for (const [slug, group] of artists) {
    const keyOf = (page: number) => listPageKey({ kind: 'artist', slug }, page);
    const render = () => {
      const inOrder = group.cards.map(priced);
      const ordered: OrderedArtist<PricedAt> = { cards: inOrder, asOf: latestOfCards(null, inOrder) };
      const pages = cardListPages('artist-page', [slug, group.name], ordered.cards, ordered.asOf, (p) =>
        cardSummary(p.card, catalog.setsByKey.get(setMapKey(p.card.game, p.card.setCode)), p.summary));
      sink.putPages(keyOf, pages, () => renderOrderedArtistPages(ordered, catalog.setsByKey));
      return pages.length;
    };
    if (!keepListLater('artist', keyOf, group.cards.length, touched !== null && !touched.artists.has(slug), render)) {
      progress.advance(render());
      await breathe();
    }
  }
  await keepDeferred('artist');

  const figuresBySeries = new Map<string, PricedFigure[]>();
  const figureRefsBySeries = new Map<string, EntityRef[]>();
  figureAt.forEach((figure, i) => {
    let list = figuresBySeries.get(figure.seriesId);
    let refs = figureRefsBySeries.get(figure.seriesId);
    if (!list || !refs) {
      figuresBySeries.set(figure.seriesId, (list = []));
      figureRefsBySeries.set(figure.seriesId, (refs = []));
    }
    list.push({ figure, summary: figurePrices.get(i) ?? null });
    refs.push({ entity: 'figure', id: figure.id, token: figurePrices.token?.(i) });
  });
  for (const series of catalog.figureSeries.values()) {
    const figures = figuresBySeries.get(series.id) ?? [];
    const refs = figureRefsBySeries.get(series.id) ?? [];
    const render = () => putListFrom({ kind: 'series', id: series.id }, sink.inputOf('series', [series], refs), () => renderSeriesPages(series, figures));
    if (!keepListLater('series', (page) => listPageKey({ kind: 'series', id: series.id }, page), figures.length, unchanged(() => refs), render)) {
      progress.advance(render());
      await breathe();
    }
  }
  await keepDeferred('series');
  // Pull-stats read no prices: a series' document is rendered only when its own facts changed (with
  // an unchanged catalog, only when the previous snapshot lacks it: the observations are walked then).
  const seriesKeys = [...catalog.figureSeries.keys()].sort(compareText).map((id) => pullStatsKey(id));
  if (unchangedCatalog && seriesKeys.every((key) => sink.hasPrevious(key))) {
    for (const key of seriesKeys) sink.keep(key);
  } else {
    for (const { seriesId, facts, render } of pendingPullStats(catalog.figureSeries.values(), [...catalog.figures.values()], catalog.pullObservations)) {
      sink.putFrom(pullStatsKey(seriesId), sink.inputOf('pull-stats', [facts], []), render);
    }
  }
  progress.advance(seriesKeys.length);

  for (const list of renderTrending(index)) putList(list.family, list.pages);
  for (const list of renderRecent(index)) putList(list.family, list.pages);

  // The binders are walked once: each walk of the log inflates and parses all of them again (at a
  // million cards the aggregates walked them four times, about 2 s each). The catalog keeps only the
  // published ones (source/load.ts), grouped by owner here; each renderer still keeps only the
  // published ones itself, and none depends on the binders' order.
  const owners = showcaseOwners(catalog.users.values(), catalog.publishedBinders);
  const ownedBinders = owners.flatMap((o) => o.binders);
  for (const list of [
    renderDiscoverSets(index),
    renderDiscoverBinders(catalog.users.values(), ownedBinders, index),
    renderDiscoverSparklines(index),
  ]) {
    putList(list.family, list.pages as Envelope<unknown[]>[]);
  }
  /** A feed made from catalog records alone: with an unchanged catalog, the previous snapshot's pages. */
  const catalogFeed = <T>(feed: 'users' | 'activity', render: () => Envelope<T[]>[]) => {
    const family = { kind: 'discover', feed } as const;
    const kept = unchangedCatalog ? sink.keepPages((page) => listPageKey(family, page)) : 0;
    if (kept > 0) progress.advance(kept);
    else putList(family, render());
  };
  // The users feed reads the public users and their published binders; the activity feed the events.
  catalogFeed('users', () => renderDiscoverUsers(catalog.users.values(), ownedBinders).pages);
  catalogFeed('activity', () => renderDiscoverActivity(catalog.activity).pages);

  // A user's showcase and binder pages read the user, their binders and the entities in them.
  // Only published binders are shown, and the showcase document itself lists them without their items.
  for (const { user, binders } of owners) {
    const shown = binders.filter((b) => isPublishedBinder(b, user));
    const refs = shown.flatMap((b) => b.items.map((i): EntityRef => ({ entity: i.entity, id: i.id })));
    let docs: ShowcaseDocuments | null = null;
    const rendered = () => (docs ??= renderShowcases(user, shown, index)!);
    const renderShowcase = () => sink.putFrom(showcaseKey(user.handle), sink.inputOf('showcase', [user, shown], []), () => rendered().showcase);
    const renderPages = () =>
      putListFrom({ kind: 'showcaseBinders', handle: user.handle }, sink.inputOf('showcase-binders', [user, shown], refs), () => rendered().binders.pages);
    // The showcase document reads no entity: with an unchanged catalog it is the previous one.
    if (!keepLater('user', 1, changed !== null, () => sink.keep(showcaseKey(user.handle)), renderShowcase)) {
      renderShowcase();
      progress.advance(1);
    }
    const keyOf = (page: number) => listPageKey({ kind: 'showcaseBinders', handle: user.handle }, page);
    if (!keepListLater('user', keyOf, shown.length, unchanged(() => refs), renderPages)) {
      progress.advance(renderPages());
      await breathe();
    }
  }
  await keepDeferred('user');

  sink.put(summaryKey(), renderCatalogSummary({ index, users: catalog.users.values(), binders: ownedBinders, priceRange, artists: artists.size }));
  progress.advance(1);
  await sink.settle();
  if (keptUnchanged > 0) progress.note(`aggregate documents: ${keptUnchanged} made from no changed card or figure kept as they were, their inputs not computed`);
  if (sink.patched() > 0) progress.note(`aggregate documents: ${sink.patched()} list pages patched from the previous snapshot's (their changed cards and asOf put in place)`);
  if (sink.handedOff() > 0) progress.note(`aggregate documents: ${sink.handedOff()} compressed on the render threads`);
}

/** 1 at the position of each card of `ids` (the cards rendered again), 0 elsewhere. */
function renderedPositions(cards: CardColumns, ids: readonly string[]): Uint8Array {
  const at = new Uint8Array(cards.length);
  for (const id of ids) {
    const i = cards.indexOf(id);
    if (i >= 0) at[i] = 1;
  }
  return at;
}

/**
 * The set keys (setMapKey), oracle ids and artist slugs (as groupArtists makes them) of the cards
 * `ids`: a group none of whose cards is among them has exactly the cards it had.
 */
function touchedGroups(catalog: LoadedCatalog, ids: readonly string[]): { sets: Set<string>; oracles: Set<string>; artists: Set<string> } {
  const sets = new Set<string>();
  const oracles = new Set<string>();
  const artists = new Set<string>();
  const slugOf = artistSlugs();
  for (const id of ids) {
    const card = catalog.cards.get(id);
    if (card === undefined) continue;
    sets.add(setMapKey(card.game, card.setCode));
    if (card.oracleId !== null) oracles.add(card.oracleId);
    if (card.artist !== null) artists.add(slugOf(card.artist));
  }
  return { sets, oracles, artists };
}
