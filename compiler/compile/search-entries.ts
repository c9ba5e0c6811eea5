/** The search entry of a card or a figure: the list summary item and what is indexed and ranked. */
import type { LoadedCatalog } from '../source/index.js';
import type { SearchEntry } from '../search/entry.js';
import { cardSummary, figureSummary, setMapKey } from '../render/summaries.js';
import type { CardRecord, FigureRecord } from '../../snapshots/records.js';
import type { PriceSummaries } from './entity-phase.js';

export function cardEntry(catalog: LoadedCatalog, prices: PriceSummaries, card: CardRecord): SearchEntry {
  const set = catalog.setsByKey.get(setMapKey(card.game, card.setCode)) ?? null;
  return {
    kind: 'card',
    id: card.id,
    game: card.game,
    name: card.name,
    setName: set?.name ?? null,
    artist: card.artist,
    number: card.number,
    popularity: card.watchers,
    summary: cardSummary(card, set, prices.cards.get(card.id) ?? null),
  };
}

export function figureEntry(catalog: LoadedCatalog, prices: PriceSummaries, figure: FigureRecord): SearchEntry {
  const series = catalog.figureSeries.get(figure.seriesId) ?? null;
  return {
    kind: 'figure',
    id: figure.id,
    game: null,
    name: figure.name,
    setName: series?.name ?? null,
    artist: null,
    number: null,
    popularity: figure.watchers,
    summary: figureSummary(figure, series, prices.figures.get(figure.id) ?? null),
  };
}
