/**
 * Daily FX rates over the price window: a mean-reverting walk around each currency's usual level
 * (a few tenths of a percent a day), one line per currency per day, oldest first.
 */
import { CURRENCIES, type Currency, type FxRateRecord } from '../../snapshots/records.js';
import type { CatalogPlan } from './plan.js';
import type { NdjsonWriter } from './write.js';
import { dayString } from '../../snapshots/dates.js';
import { rngFor } from './prng.js';

const LEVEL: Record<Currency, number> = { EUR: 0.92, GBP: 0.79, CAD: 1.37, AUD: 1.52 };
export const FX_SOURCE = 'synthetic-ecb';

export async function writeFxRates(plan: CatalogPlan, out: NdjsonWriter): Promise<number> {
  const rngs = CURRENCIES.map((c) => rngFor(plan.seed, 'fx', c));
  const rates = CURRENCIES.map((c, i) => LEVEL[c] * (1 + 0.03 * rngs[i].normal()));
  let count = 0;
  for (let day = plan.historyStartDay; day <= plan.asOfDay; day += 1) {
    const date = dayString(day);
    for (let i = 0; i < CURRENCIES.length; i += 1) {
      const currency = CURRENCIES[i];
      rates[i] += 0.02 * (LEVEL[currency] - rates[i]) + rates[i] * 0.004 * rngs[i].normal();
      const record: FxRateRecord = { date, currency, perUsd: Math.round(rates[i] * 10000) / 10000, source: FX_SOURCE };
      await out.write(record);
      count += 1;
    }
  }
  return count;
}
