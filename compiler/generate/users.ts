/**
 * Users, rebuilt from their index whenever needed (binders, activity and pull reports point at
 * them), so no user table is kept. Who opted into the showcase is decided by a low-discrepancy
 * sequence rather than a coin per user: even a 50-user catalog gets its ~35% showcase, ~10%
 * anonymous and ~55% ordinary users.
 */
import type { UserRecord } from '../../snapshots/records.js';
import type { CatalogPlan } from './plan.js';
import type { NdjsonWriter } from './write.js';
import { dayString } from '../../snapshots/dates.js';
import { displayName } from './names.js';
import { rngFor, seedFraction } from './prng.js';
import { HANDLE_WORDS_A, HANDLE_WORDS_B } from './words.js';

const SHOWCASE_SHARE = 0.35;
const ANONYMOUS_SHARE = 0.1;
const GOLDEN = 0.6180339887498949;

export function userId(plan: CatalogPlan, index: number): string {
  return `u-${String(index + 1).padStart(Math.max(6, String(plan.users).length), '0')}`;
}

export function userAt(plan: CatalogPlan, index: number): UserRecord {
  const rng = rngFor(plan.seed, 'user', index);
  const f = (seedFraction(plan.seed, 'user-kinds') + index * GOLDEN) % 1;
  const showcase = f < SHOWCASE_SHARE;
  const anonymous = !showcase && f < SHOWCASE_SHARE + ANONYMOUS_SHARE;
  // The index in base 36 after the last hyphen keeps every handle unique.
  const handle = `${rng.pick(HANDLE_WORDS_A)}${rng.pick(HANDLE_WORDS_B)}-${(index + 1).toString(36)}`;
  const name = displayName(rng);
  return {
    id: userId(plan, index),
    handle: anonymous ? null : handle,
    displayName: anonymous ? null : name,
    showcase,
    anonymous,
    joinedAt: dayString(plan.launchDay + Math.floor(rng.next() * (plan.asOfDay - plan.launchDay))),
  };
}

export async function writeUsers(plan: CatalogPlan, out: NdjsonWriter): Promise<number> {
  for (let i = 0; i < plan.users; i += 1) await out.write(userAt(plan, i));
  return plan.users;
}
