/**
 * Community pull reports per figure series: someone opened `boxes` blind boxes and says what came
 * out. Odds follow the rarity (a secret about 1 in 144 boxes, as blind-box makers print on the
 * case); some reporters leave boxes out, so sum(pulls) <= boxes.
 */
import type { FigureRarity, PullObservationRecord } from '../../snapshots/records.js';
import { figureId, type CatalogPlan } from './plan.js';
import type { NdjsonWriter } from './write.js';
import { dayString } from '../../snapshots/dates.js';
import { rngFor, weighted } from './prng.js';
import { userId } from './users.js';

const ODDS: Record<Exclude<FigureRarity, 'secret'>, number> = { common: 12, uncommon: 6, rare: 3, ultra: 1 };
const SECRET_ONE_IN = 144;
const BOX_COUNTS = [[1, 30], [2, 10], [3, 8], [6, 12], [12, 15], [24, 8], [0, 17]] as const;

export async function writePullObservations(plan: CatalogPlan, out: NdjsonWriter): Promise<number> {
  const width = Math.max(6, String(plan.series.length * 25).length);
  let count = 0;
  for (const series of plan.series) {
    const rng = rngFor(plan.seed, 'pulls', series.record.id);
    const ids = series.rarities.map((_, position) => figureId(series, position));
    const others = series.rarities.reduce((sum, r) => sum + (r === 'secret' ? 0 : ODDS[r]), 0);
    const weights = series.rarities.map((r) => (r === 'secret' ? others / (SECRET_ONE_IN - 1) : ODDS[r]));
    const table = weights.map((w, k) => [k, w] as const);
    const reports = rng.int(8, 40);
    const from = Math.max(series.releasedDay, plan.asOfDay - 700);
    for (let r = 0; r < reports; r += 1) {
      let boxes: number = weighted(rng, BOX_COUNTS);
      if (boxes === 0) boxes = rng.int(4, 23);
      const counted = rng.chance(0.1) ? boxes - rng.int(1, Math.min(3, boxes)) : boxes;
      const tally = new Array<number>(ids.length).fill(0);
      for (let b = 0; b < counted; b += 1) tally[weighted(rng, table)] += 1;
      // Keys in figure order, only figures that came out.
      const pulls: Record<string, number> = {};
      tally.forEach((n, k) => {
        if (n > 0) pulls[ids[k]] = n;
      });
      count += 1;
      const observation: PullObservationRecord = {
        id: `po-${String(count).padStart(width, '0')}`,
        seriesId: series.record.id,
        userId: rng.chance(0.2) ? null : userId(plan, rng.int(0, plan.users - 1)),
        observedAt: dayString(from + Math.floor(rng.next() * (plan.asOfDay - from + 1))),
        boxes,
        pulls,
      };
      await out.write(observation);
    }
  }
  return count;
}
