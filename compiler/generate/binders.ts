/**
 * Binders, about 1.5 per user, made user by user from the user's own stream. Public binders of
 * users who did not opt in are generated on purpose: the compiler must keep them out.
 */
import type { BinderRecord } from '../../snapshots/records.js';
import type { CatalogPlan } from './plan.js';
import type { NdjsonWriter } from './write.js';
import { dayNumber, dayString } from '../../snapshots/dates.js';
import { pickEntity } from './entities.js';
import { rngFor, weighted } from './prng.js';
import { userAt } from './users.js';
import { BINDER_NAMES } from './words.js';

const BINDERS_PER_USER = [[0, 20], [1, 30], [2, 30], [3, 20]] as const;

export async function writeBinders(plan: CatalogPlan, out: NdjsonWriter): Promise<number> {
  const width = Math.max(6, String(Math.round(plan.users * 1.5)).length);
  let count = 0;
  for (let i = 0; i < plan.users; i += 1) {
    const user = userAt(plan, i);
    const rng = rngFor(plan.seed, 'binders', i);
    const binders = weighted(rng, BINDERS_PER_USER);
    const joinedDay = dayNumber(user.joinedAt);
    for (let b = 0; b < binders; b += 1) {
      const publicShare = user.showcase ? 0.6 : user.anonymous ? 0.1 : 0.25;
      const size = rng.chance(0.1) ? 0 : Math.min(60, Math.round(rng.logNormal(10, 0.8)));
      const items = [];
      const seen = new Set<string>();
      for (let k = 0; k < size; k += 1) {
        const item = pickEntity(plan, rng, rng.chance(0.85) ? 'card' : 'figure');
        const key = `${item.entity}/${item.id}`;
        if (seen.has(key)) continue;
        seen.add(key);
        items.push(item);
      }
      count += 1;
      const binder: BinderRecord = {
        id: `b-${String(count).padStart(width, '0')}`,
        userId: user.id,
        name: rng.pick(BINDER_NAMES),
        public: rng.chance(publicShare),
        items,
        updatedAt: dayString(joinedDay + Math.floor(rng.next() * (plan.asOfDay - joinedDay + 1))),
      };
      await out.write(binder);
    }
  }
  return count;
}
