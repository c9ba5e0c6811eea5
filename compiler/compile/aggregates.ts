/**
 * Renders every document that aggregates many records (oracle concepts, set/artist/series pages,
 * pull-stats, trending, recent, discover feeds, showcases, the catalog summary) and hands each to
 * the sink at the key that mirrors its URL. Runs on the main thread after the entity phase, from
 * the loaded catalog and the per-entity LatestPrice only (and the few sparklines' recent days).
 */
import type { LoadedCatalog } from '../source/index.js';
import type { CardRecord, FigureRecord } from '../../snapshots/records.js';
import { listPageKey, oracleKey, pullStatsKey, showcaseKey, summaryKey, type ListFamily } from '../../snapshots/keys.js';
import type { Envelope } from '../../snapshots/envelope.js';
import { setMapKey, type CatalogIndex, type PricedCard, type PricedFigure } from '../render/summaries.js';
import { renderOracle } from '../render/oracle.js';
import { orderSetCards, renderOrderedSetPages } from '../render/set-pages.js';
import { pageCount, pageSlices } from '../render/paginate.js';
import { groupArtists, renderArtistPages } from '../render/artist-pages.js';
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
import type { DocumentSink, EntityRef } from './document-sink.js';
import { DOCUMENT_RANGES } from '../bulk/document-ranges.js';
import type { ProgressSink } from './progress.js';
import type { PriceSummaries } from './index.js';

/** The oracle concepts' key range: only oracle documents are in it. */
const ORACLE_RANGE = DOCUMENT_RANGES.oracle;

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
 * those alone (the pull-stats, the activity feed) are then the previous snapshot's, kept without
 * walking the pull observations and activity events (at a million cards about 4 s of an incremental
 * compile).
 *
 * So is every document made from a known group of entities none of which was rendered again this
 * compile (an entity is rendered again exactly when its input changed: entity-phase.ts): an oracle
 * concept, a set's, an artist's or a series' pages, a user's showcase and binder pages. They are kept
 * without computing their inputs (the groups come from the catalog, which is the previous one), so
 * the work follows the change: a 1% price change at a million cards touches about one oracle
 * concept in fifty.
 */
export function renderAggregates(
  catalog: LoadedCatalog, prices: PriceSummaries, priceRange: PriceRange, sink: DocumentSink, progress: ProgressSink, unchangedCatalog = false,
): void {
  const index = catalogIndex(catalog, prices);
  // The entities rendered again, when the rest of the catalog is the previous snapshot's; else null.
  const changed = unchangedCatalog ? { card: new Set(prices.rendered.card), figure: new Set(prices.rendered.figure) } : null;
  /** True when the catalog is the previous one and no entity of `refs()` was rendered again (refs made only then). */
  const unchanged = (refs: () => readonly EntityRef[]): boolean => changed !== null && refs().every((r) => !changed[r.entity].has(r.id));
  const cardRefs = (cards: readonly PricedCard[]): EntityRef[] => cards.map((p) => ({ entity: 'card', id: p.card.id }));
  let keptUnchanged = 0;
  /** Keeps all `pageCount(items)` pages of a list made from unchanged entities; false when it must be computed. */
  const keptList = (keyOf: (page: number) => string, items: number, unchanged: boolean): boolean => {
    if (!unchanged || !sink.keepList(keyOf, pageCount(items))) return false;
    progress.advance(pageCount(items));
    keptUnchanged += pageCount(items);
    return true;
  };
  const kept = (key: string): boolean => {
    if (!sink.keep(key)) return false;
    keptUnchanged++;
    return true;
  };
  const putList = <T>(family: ListFamily, pages: Envelope<T[]>[]) => {
    pages.forEach((page, i) => sink.put(listPageKey(family, i + 1), page));
    progress.advance(pages.length);
  };
  const priced = (card: CardRecord): PricedCard => ({ card, summary: prices.cards.get(card.id) ?? null });
  const pricedFigure = (figure: FigureRecord): PricedFigure => ({ figure, summary: prices.figures.get(figure.id) ?? null });

  // One pass over the cards groups them by set and by oracle concept.
  const bySet = new Map<string, PricedCard[]>();
  const byOracle = new Map<string, PricedCard[]>();
  for (const card of catalog.cards.values()) {
    const p = priced(card);
    const sk = setMapKey(card.game, card.setCode);
    let list = bySet.get(sk);
    if (!list) bySet.set(sk, (list = []));
    list.push(p);
    if (card.oracleId !== null) {
      let o = byOracle.get(card.oracleId);
      if (!o) byOracle.set(card.oracleId, (o = []));
      o.push(p);
    }
  }

  // An oracle document is made from its printings alone (their records, sets and prices), so it is
  // fingerprinted from theirs and rendered only when one of them changed (document-sink.ts). With an
  // unchanged catalog, one none of whose printings changed is kept (looked up many at a time).
  const putOracle = (oracleId: string, printings: PricedCard[]) =>
    sink.putFromCards(oracleKey(oracleId), printings.map((p) => p.card.id), () =>
      renderOracle({
        oracleId,
        printings: printings.map((p) => ({ card: p.card, set: catalog.setsByKey.get(setMapKey(p.card.game, p.card.setCode))!, summary: p.summary })),
      }));
  // The unchanged ones are the rest of the previous snapshot's oracle range, kept in one statement
  // once the others are written; one by one (looked up 256 at a time) if the count differs.
  const unchangedOracles: string[] = [];
  for (const [oracleId, printings] of byOracle) {
    progress.advance(1);
    if (unchanged(() => cardRefs(printings))) unchangedOracles.push(oracleId);
    else putOracle(oracleId, printings);
  }
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
  const putListFrom = <T>(family: ListFamily, input: string, render: () => Envelope<T[]>[]) => {
    progress.advance(sink.putPagesFrom((page) => listPageKey(family, page), input, render));
  };

  // A set page's bytes are the set, the list's asOf and total, its number and its own cards, in page
  // order: it is written only when one of those changed (a 1% price change touches most sets, but
  // few of their pages).
  for (const set of catalog.sets) {
    const cards = bySet.get(setMapKey(set.game, set.code)) ?? [];
    const keyOf = (page: number) => listPageKey({ kind: 'set', game: set.game, code: set.code }, page);
    if (keptList(keyOf, cards.length, unchanged(() => cardRefs(cards)))) continue;
    const ordered = orderSetCards(set, cards);
    const list = { asOf: ordered.asOf, total: ordered.cards.length };
    const inputs = pageSlices(ordered.cards).map((cards, i) => sink.inputOf('set-page', [set, list, i + 1], cardRefs(cards)));
    sink.putPages(keyOf, inputs, () => renderOrderedSetPages(set, ordered));
    progress.advance(inputs.length);
  }

  for (const [slug, group] of groupArtists(catalog.cards.values())) {
    if (keptList((page) => listPageKey({ kind: 'artist', slug }, page), group.cards.length, unchanged(() => group.cards.map((card): EntityRef => ({ entity: 'card', id: card.id }))))) continue;
    const cards = group.cards.map(priced);
    putListFrom({ kind: 'artist', slug }, sink.inputOf('artist', [slug, group.name], cardRefs(cards)), () =>
      renderArtistPages(slug, group.name, cards, catalog.setsByKey));
  }

  const figuresBySeries = new Map<string, PricedFigure[]>();
  for (const f of catalog.figures.values()) {
    let list = figuresBySeries.get(f.seriesId);
    if (!list) figuresBySeries.set(f.seriesId, (list = []));
    list.push(pricedFigure(f));
  }
  for (const series of catalog.figureSeries.values()) {
    const figures = figuresBySeries.get(series.id) ?? [];
    const refs = figures.map((f): EntityRef => ({ entity: 'figure', id: f.figure.id }));
    if (keptList((page) => listPageKey({ kind: 'series', id: series.id }, page), figures.length, unchanged(() => refs))) continue;
    putListFrom({ kind: 'series', id: series.id }, sink.inputOf('series', [series], refs), () => renderSeriesPages(series, figures));
  }
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
  // million cards the aggregates walked them four times, about 2 s each). What the feeds, the
  // showcases and the summary read of them is the binders of public users, grouped by owner here;
  // each renderer still keeps only the published ones, and none depends on the binders' order.
  const owners = showcaseOwners(catalog.users.values(), catalog.binders);
  const ownedBinders = owners.flatMap((o) => o.binders);
  for (const list of [
    renderDiscoverSets(index),
    renderDiscoverUsers(catalog.users.values(), ownedBinders),
    renderDiscoverBinders(catalog.users.values(), ownedBinders, index),
    renderDiscoverSparklines(index),
  ]) {
    putList(list.family, list.pages as Envelope<unknown[]>[]);
  }
  // The activity feed reads the activity events alone.
  const activity = { kind: 'discover', feed: 'activity' } as const;
  const keptPages = unchangedCatalog ? sink.keepPages((page) => listPageKey(activity, page)) : 0;
  if (keptPages > 0) progress.advance(keptPages);
  else putList(activity, renderDiscoverActivity(catalog.activity).pages);

  // A user's showcase and binder pages read the user, their binders and the entities in them.
  // Only published binders are shown, and the showcase document itself lists them without their items.
  for (const { user, binders } of owners) {
    const shown = binders.filter((b) => isPublishedBinder(b, user));
    const refs = shown.flatMap((b) => b.items.map((i): EntityRef => ({ entity: i.entity, id: i.id })));
    progress.advance(1);
    // The showcase document reads no entity: with an unchanged catalog it is the previous one.
    const showcaseKept = changed !== null && kept(showcaseKey(user.handle));
    const pagesKept = keptList(
      (page) => listPageKey({ kind: 'showcaseBinders', handle: user.handle }, page), shown.length,
      unchanged(() => refs),
    );
    let docs: ShowcaseDocuments | null = null;
    const rendered = () => (docs ??= renderShowcases(user, shown, index)!);
    if (!showcaseKept) sink.putFrom(showcaseKey(user.handle), sink.inputOf('showcase', [user, shown], []), () => rendered().showcase);
    if (!pagesKept) putListFrom({ kind: 'showcaseBinders', handle: user.handle }, sink.inputOf('showcase-binders', [user, shown], refs), () => rendered().binders.pages);
  }

  sink.put(summaryKey(), renderCatalogSummary({ index, users: catalog.users.values(), binders: ownedBinders, priceRange }));
  progress.advance(1);
  if (keptUnchanged > 0) progress.note(`aggregate documents: ${keptUnchanged} made from no changed card or figure kept as they were, their inputs not computed`);
}
