/**
 * Daily price series: a random walk pulled toward a trend line that ends at the entity's
 * current price, with occasional spikes that decay over a couple of weeks, rare missing days, and for a
 * few entities a big move on the last day (so trending has something to rank). The last two days are
 * always observed: the 24-hour velocity needs both.
 */
import type { Rng } from './prng.js';

/** Unit-variance uniform noise: close enough to normal for a daily step, and one draw instead of two. */
const UNIFORM_SCALE = Math.sqrt(12);
/** Share of the gap to the trend line closed each day (mean reversion). */
const PULL = 0.05;
/** Share of a spike left after a day (about two weeks to fade). */
const SPIKE_DECAY = 0.88;

/** Days until the next event of daily probability p (geometric), from one draw. */
function gap(rng: Rng, p: number): number {
  return Math.floor(Math.log(1 - rng.next()) / Math.log(1 - p));
}

/**
 * The walk is multiplicative in price space (no exp/log per day: this loop runs once per entity per
 * day, hundreds of millions of times for a large catalog); the trend line is geometric from a start
 * level to `currentCents`.
 */
export function priceWalk(rng: Rng, currentCents: number, days: number): (number | null)[] {
  const out: (number | null)[] = [];
  const volatility = (0.008 + rng.next() * 0.022) * UNIFORM_SCALE;
  const startCents = currentCents * Math.exp(0.35 * rng.normal());
  const ratio = days > 1 ? Math.pow(currentCents / startCents, 1 / (days - 1)) : 1;
  const nullRate = rng.chance(0.3) ? 0.002 + rng.next() * 0.02 : 0;
  let nextNull = nullRate > 0 ? gap(rng, nullRate) : days;
  let nextSpike = gap(rng, 1 / 400);
  let trend = days > 1 ? startCents : currentCents;
  let price = trend;
  let spike = 1;
  for (let t = 0; t < days; t += 1) {
    price += PULL * (trend - price) + price * volatility * (rng.next() - 0.5);
    trend *= ratio;
    spike = 1 + (spike - 1) * SPIKE_DECAY;
    if (t === nextSpike) {
      spike *= 1.3 + rng.next() * 1.2;
      nextSpike = t + 1 + gap(rng, 1 / 400);
    }
    if (t === nextNull && t < days - 2) {
      out.push(null);
      nextNull = t + 1 + gap(rng, nullRate);
      continue;
    }
    const cents = price * spike;
    out.push(cents < 1 ? 1 : cents > 1e9 ? 1e9 : (cents + 0.5) | 0);
  }
  if (days >= 2 && rng.chance(0.03)) {
    // A last-day mover: a reprint announcement, a tournament win, a sell-off.
    const previous = out[days - 2] as number;
    const move = rng.chance(0.7) ? 0.15 + rng.next() * 1.1 : -(0.15 + rng.next() * 0.45);
    out[days - 1] = Math.max(1, Math.round(previous * (1 + move)));
  }
  return out;
}

/**
 * How many users watch an entry: mostly a handful, growing with the price (people watch what is
 * worth watching), more for new releases, and a rare viral entry with thousands.
 */
export function watchersFor(rng: Rng, cents: number, fresh: boolean): number {
  let w = Math.exp(Math.log1p(2.5 * Math.sqrt(cents / 100)) + 0.9 * rng.normal()) - 1;
  if (fresh) w *= 1.8;
  // Chase cards go viral far more often than bulk.
  if (rng.chance(cents >= 5000 ? 0.03 : 0.002)) w *= rng.int(10, 60);
  return Math.max(0, Math.round(w));
}
