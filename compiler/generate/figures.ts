/**
 * Figure series and their figures (blind-box collectibles), with price series. Within a series the
 * names do not repeat; the one secret figure is marked in its name, as manufacturers do.
 */
import type { FigureRarity, FigureRecord, PriceSeriesRecord } from '../../snapshots/records.js';
import type { CatalogPlan } from './plan.js';
import { figureId } from './plan.js';
import type { NdjsonWriter } from './write.js';
import { dayString } from '../../snapshots/dates.js';
import { rngFor } from './prng.js';
import { priceWalk, watchersFor } from './prices.js';
import { FIGURE_SUBJECTS, FIGURE_VARIANTS } from './words.js';

const MEDIAN_CENTS: Record<FigureRarity, number> = { common: 900, uncommon: 1300, rare: 2500, ultra: 6500, secret: 25000 };
const NAME_MARK: Partial<Record<FigureRarity, string>> = { ultra: ' (Chase)', secret: ' (Secret)' };
const IMAGE_BASE = 'https://images.synthetic-catalog.invalid/figures';

export interface FiguresOutcome {
  figureSeries: number;
  figures: number;
  priceSeries: number;
}

export async function writeFigures(
  plan: CatalogPlan,
  out: { figureSeries: NdjsonWriter; figures: NdjsonWriter; prices: NdjsonWriter },
  advance: (units: number) => void,
): Promise<FiguresOutcome> {
  let priceSeries = 0;
  for (const series of plan.series) {
    await out.figureSeries.write(series.record);
    const rng = rngFor(plan.seed, 'figures', series.record.id);
    const used = new Set<string>();
    for (let position = 0; position < series.rarities.length; position += 1) {
      const rarity = series.rarities[position];
      let base = `${rng.pick(FIGURE_VARIANTS)} ${rng.pick(FIGURE_SUBJECTS)}`;
      while (used.has(base)) base = `${rng.pick(FIGURE_VARIANTS)} ${rng.pick(FIGURE_SUBJECTS)}`;
      used.add(base);
      const id = figureId(series, position);
      const cents = Math.max(100, Math.round(rng.logNormal(MEDIAN_CENTS[rarity], 0.4)));
      const figure: FigureRecord = {
        id,
        seriesId: series.record.id,
        name: `${base}${NAME_MARK[rarity] ?? ''}`,
        rarity,
        imageUrl: rng.chance(0.03) ? null : `${IMAGE_BASE}/${id}.png`,
        releasedAt: series.record.releasedAt,
        addedAt: dayString(series.addedDay),
        watchers: watchersFor(rng, cents, plan.asOfDay - series.releasedDay < 90),
      };
      await out.figures.write(figure);
      const start = Math.max(plan.historyStartDay, series.addedDay);
      const prices: PriceSeriesRecord = {
        entity: 'figure',
        id,
        start: dayString(start),
        usdCents: priceWalk(rngFor(plan.seed, 'price', 'figure', id), cents, plan.asOfDay - start + 1),
      };
      await out.prices.write(prices);
      priceSeries += 1;
    }
    advance(series.rarities.length);
  }
  return { figureSeries: plan.series.length, figures: plan.figures, priceSeries };
}
