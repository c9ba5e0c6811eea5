/**
 * Activity events over the last 90 days before asOf, in time order (event i sits in the i-th slice
 * of the window), so the file reads like a log and needs no sort.
 */
import { ACTIVITY_TYPES, type ActivityEventRecord, type ActivityType } from '../../snapshots/records.js';
import type { CatalogPlan } from './plan.js';
import type { NdjsonWriter } from './write.js';
import { formatInstant, MS_PER_DAY } from '../../snapshots/dates.js';
import { pickEntity } from './entities.js';
import { rngFor, weighted } from './prng.js';
import { userId } from './users.js';

const WINDOW_DAYS = 90;
const TYPE_WEIGHTS: Record<ActivityType, number> = { binder_add: 40, wishlist_add: 30, pull: 12, price_alert: 18 };
const TYPES = ACTIVITY_TYPES.map((t) => [t, TYPE_WEIGHTS[t]] as const);

export async function writeActivity(plan: CatalogPlan, out: NdjsonWriter): Promise<number> {
  // The window ends at the start of the asOf day: the export is "true as of" that day.
  const end = plan.asOfDay * MS_PER_DAY;
  const span = WINDOW_DAYS * MS_PER_DAY;
  const n = plan.activity;
  const width = Math.max(7, String(n).length);
  for (let i = 0; i < n; i += 1) {
    const rng = rngFor(plan.seed, 'activity', i);
    const type = weighted(rng, TYPES);
    const item = pickEntity(plan, rng, type === 'pull' || rng.chance(0.1) ? 'figure' : 'card');
    const event: ActivityEventRecord = {
      id: `a-${String(i + 1).padStart(width, '0')}`,
      userId: rng.chance(0.15) ? null : userId(plan, rng.int(0, plan.users - 1)),
      type,
      entity: item.entity,
      entityId: item.id,
      at: formatInstant(end - span + Math.floor(((i + rng.next()) * span) / n)),
    };
    await out.write(event);
  }
  return n;
}
