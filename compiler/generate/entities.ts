/**
 * Picks a card or figure for binders and activity. Part of the picks come from a small "hot" subset
 * (every 97th entity), so the aggregated feeds show a few clearly popular entries, as real ones do.
 */
import type { BinderItem, EntityType } from '../../snapshots/records.js';
import type { Rng } from './prng.js';
import { cardIdAt, figureIdAt, type CatalogPlan } from './plan.js';

const HOT_EVERY = 97;
const HOT_SHARE = 0.3;

function pickIndex(rng: Rng, count: number): number {
  const hot = Math.ceil(count / HOT_EVERY);
  return rng.chance(HOT_SHARE) ? HOT_EVERY * rng.int(0, hot - 1) : rng.int(0, count - 1);
}

export function pickEntity(plan: CatalogPlan, rng: Rng, entity: EntityType): BinderItem {
  return entity === 'card'
    ? { entity, id: cardIdAt(plan, pickIndex(rng, plan.cards)) }
    : { entity, id: figureIdAt(plan, pickIndex(rng, plan.figures)) };
}
