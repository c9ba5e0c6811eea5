/**
 * `/v1/figures/series/:id`: the figures of one series, commonest tier first.
 */
import type { Envelope } from '../../snapshots/envelope.js';
import { FIGURE_RARITIES, type FigureRarity, type FigureRecord, type FigureSeriesRecord } from '../../snapshots/records.js';
import { laterOf } from './as-of.js';
import { compareText } from './order.js';
import { paginate } from './paginate.js';
import { figureSummary, type FigureSummary, type PricedFigure } from './summaries.js';

/** Rarity tier (FIGURE_RARITIES order, no tier last), then name, then id: the order of series pages and pull-stats. */
export function compareFiguresByTier(a: FigureRecord, b: FigureRecord): number {
  return (
    tierOrder(a.rarity) - tierOrder(b.rarity) ||
    compareText(a.name, b.name) ||
    compareText(a.id, b.id)
  );
}

/** FIGURE_RARITIES position; a figure without a tier (null) comes after every tier. */
function tierOrder(rarity: FigureRarity | null): number {
  return rarity === null ? FIGURE_RARITIES.length : FIGURE_RARITIES.indexOf(rarity);
}

/** asOf: the latest of the series' release, the figures' addedAt and their price dates. */
export function renderSeriesPages(series: FigureSeriesRecord, figures: PricedFigure[]): Envelope<FigureSummary[]>[] {
  const sorted = [...figures].sort((x, y) => compareFiguresByTier(x.figure, y.figure));
  let asOf: string | null = series.releasedAt;
  const items = sorted.map((f) => {
    asOf = laterOf(laterOf(asOf, f.figure.addedAt), f.summary?.lastDate);
    return figureSummary(f.figure, series, f.summary);
  });
  return paginate('series', items, asOf);
}
