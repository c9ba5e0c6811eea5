/**
 * Renders every document that aggregates many records (oracle concepts, set/artist/series pages,
 * pull-stats, trending, recent, discover feeds, showcases, the catalog summary) and hands each to
 * the sink at the key that mirrors its URL. Runs on the main thread after the entity phase, from
 * the loaded catalog and the per-entity PriceSummary only.
 */
import type { LoadedCatalog } from '../source/index.js';
import type { CardRecord, FigureRecord } from '../../snapshots/records.js';
import { listPageKey, oracleKey, pullStatsKey, showcaseKey, summaryKey, type ListFamily } from '../../snapshots/keys.js';
import type { Envelope } from '../../snapshots/envelope.js';
import { setMapKey, type CatalogIndex, type PricedCard, type PricedFigure } from '../render/summaries.js';
import { renderOracle } from '../render/oracle.js';
import { renderSetPages } from '../render/set-pages.js';
import { groupArtists, renderArtistPages } from '../render/artist-pages.js';
import { renderSeriesPages } from '../render/series-pages.js';
import { renderAllPullStats } from '../render/pull-stats.js';
import { renderTrending } from '../render/trending.js';
import { renderRecent } from '../render/recent.js';
import { renderDiscoverSets } from '../render/discover-sets.js';
import { renderDiscoverUsers } from '../render/discover-users.js';
import { renderDiscoverBinders } from '../render/discover-binders.js';
import { renderDiscoverActivity } from '../render/discover-activity.js';
import { renderDiscoverSparklines } from '../render/discover-sparklines.js';
import { renderAllShowcases } from '../render/showcase.js';
import { renderCatalogSummary, type PriceRange } from '../render/summary.js';
import type { DocumentSink } from './document-sink.js';
import type { ProgressSink } from './progress.js';
import type { PriceSummaries } from './index.js';

export function catalogIndex(catalog: LoadedCatalog, prices: PriceSummaries): CatalogIndex {
  return {
    sets: catalog.setsByKey,
    series: catalog.figureSeries,
    prices: { card: prices.cards, figure: prices.figures },
    cards: catalog.cards,
    figures: catalog.figures,
  };
}

export function renderAggregates(catalog: LoadedCatalog, prices: PriceSummaries, priceRange: PriceRange, sink: DocumentSink, progress: ProgressSink): void {
  const index = catalogIndex(catalog, prices);
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
  // fingerprinted from theirs and rendered only when one of them changed (document-sink.ts).
  for (const [oracleId, printings] of byOracle) {
    sink.putFromCards(oracleKey(oracleId), printings.map((p) => p.card.id), () =>
      renderOracle({
        oracleId,
        printings: printings.map((p) => ({ card: p.card, set: catalog.setsByKey.get(setMapKey(p.card.game, p.card.setCode))!, summary: p.summary })),
      }));
    progress.advance(1);
  }

  for (const set of catalog.sets) {
    putList({ kind: 'set', game: set.game, code: set.code }, renderSetPages(set, bySet.get(setMapKey(set.game, set.code)) ?? []));
  }

  for (const [slug, group] of groupArtists(catalog.cards.values())) {
    putList({ kind: 'artist', slug }, renderArtistPages(slug, group.name, group.cards.map(priced), catalog.setsByKey));
  }

  const figuresBySeries = new Map<string, PricedFigure[]>();
  for (const f of catalog.figures.values()) {
    let list = figuresBySeries.get(f.seriesId);
    if (!list) figuresBySeries.set(f.seriesId, (list = []));
    list.push(pricedFigure(f));
  }
  for (const series of catalog.figureSeries.values()) {
    putList({ kind: 'series', id: series.id }, renderSeriesPages(series, figuresBySeries.get(series.id) ?? []));
  }
  for (const { seriesId, document } of renderAllPullStats(catalog.figureSeries.values(), [...catalog.figures.values()], catalog.pullObservations)) {
    sink.put(pullStatsKey(seriesId), document);
    progress.advance(1);
  }

  for (const list of renderTrending(index)) putList(list.family, list.pages);
  for (const list of renderRecent(index)) putList(list.family, list.pages);
  for (const list of [
    renderDiscoverSets(index),
    renderDiscoverUsers(catalog.users.values(), catalog.binders),
    renderDiscoverBinders(catalog.users.values(), catalog.binders, index),
    renderDiscoverActivity(catalog.activity),
    renderDiscoverSparklines(index),
  ]) {
    putList(list.family, list.pages as Envelope<unknown[]>[]);
  }

  for (const docs of renderAllShowcases(catalog.users.values(), catalog.binders, index)) {
    sink.put(showcaseKey(docs.handle), docs.showcase);
    putList(docs.binders.family, docs.binders.pages);
    progress.advance(1);
  }

  sink.put(summaryKey(), renderCatalogSummary({ index, users: catalog.users.values(), binders: catalog.binders, priceRange }));
  progress.advance(1);
}
