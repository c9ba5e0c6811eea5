/**
 * `--synthetic-prices <seed>`: a year of made-up daily prices for a card or figure that has no
 * observed price, so a demo of the API has charts to show. Each series is drawn from its own stream
 * (seed, entity, id), so it does not depend on what else is in the folder, and it is marked
 * `synthetic: true` in prices.ndjson: it can never be mistaken for an observation, and an observed
 * price imported later replaces it whole.
 *
 * @example syntheticSeries(7, 'card', 'base1-4', '2026-11-22') // { entity, id, start: '2025-11-23', usdCents: [...365], synthetic: true }
 */
import type { EntityType, PriceSeriesRecord } from '../../snapshots/records.js';
import { priceWalk } from '../generate/prices.js';
import { rngFor } from '../generate/prng.js';
import { addDays } from '../../snapshots/dates.js';

export const SYNTHETIC_DAYS = 365;

export function syntheticSeries(seed: number, entity: EntityType, id: string, asOf: string): PriceSeriesRecord {
  const rng = rngFor(seed, 'synthetic-price', entity, id);
  // Log-normal around $2 (most singles are cheap, a few are dear): exp(N(ln 200, 1.4)) cents.
  const current = Math.max(5, Math.round(Math.exp(Math.log(200) + 1.4 * rng.normal())));
  return {
    entity,
    id,
    start: addDays(asOf, -(SYNTHETIC_DAYS - 1)),
    usdCents: priceWalk(rng, current, SYNTHETIC_DAYS),
    synthetic: true,
  };
}
