/**
 * Each priced entity's LatestPrice, kept in flat typed arrays for the whole compile instead of one
 * object per entity.
 *
 * The summaries live from the entity phase to the end of the aggregates: at a million cards a
 * million objects, each with a heap number for its velocity, that survived two young-generation
 * collections and were copied into the old generation one by one (the scavenges of an incremental
 * compile's entity phase were mostly that copying). Here an entity is a slot of five columns; the
 * object the renderers read is made when they ask for it (`get`) and dies young.
 *
 * The values are exactly the ones set: cents and velocity as float64 (-0 kept), a missing
 * previousCents or velocity as NaN (neither is ever NaN when present: summarizePrices), the day as
 * the index of its string in a list of the distinct days (most series end on one of a few).
 *
 * @example
 *   const prices = createPriceTable();
 *   prices.set(card.id, { lastDate: '2026-11-20', lastCents: 1250, previousCents: null, velocity24h: null, synthetic: false });
 *   prices.get(card.id)   // an equal LatestPrice (a new object each call)
 */
import type { LatestPrice, PriceLookup } from '../render/types.js';

export interface PriceTable extends PriceLookup {
  /** Sets (or replaces) an entity's price. The id is kept as the key: pass a string the compile keeps anyway (the record's). */
  set(id: string, latest: LatestPrice): void;
}

const FIRST_CAPACITY = 1024;

export function createPriceTable(): PriceTable {
  const slots = new Map<string, number>();
  const days: string[] = [];
  const dayIndex = new Map<string, number>();
  let capacity = 0;
  let day = new Uint32Array(0);
  let last = new Float64Array(0);
  let previous = new Float64Array(0);
  let velocity = new Float64Array(0);
  let synthetic = new Uint8Array(0);

  const grow = () => {
    capacity = Math.max(FIRST_CAPACITY, capacity * 2);
    const widen = <T extends Uint32Array | Float64Array | Uint8Array>(from: T, to: T): T => {
      to.set(from);
      return to;
    };
    day = widen(day, new Uint32Array(capacity));
    last = widen(last, new Float64Array(capacity));
    previous = widen(previous, new Float64Array(capacity));
    velocity = widen(velocity, new Float64Array(capacity));
    synthetic = widen(synthetic, new Uint8Array(capacity));
  };

  return {
    get size() {
      return slots.size;
    },
    has: (id) => slots.has(id),
    get(id) {
      const s = slots.get(id);
      if (s === undefined) return undefined;
      const p = previous[s];
      const v = velocity[s];
      return { lastDate: days[day[s]], lastCents: last[s], previousCents: Number.isNaN(p) ? null : p, velocity24h: Number.isNaN(v) ? null : v, synthetic: synthetic[s] === 1 };
    },
    set(id, latest) {
      let s = slots.get(id);
      if (s === undefined) {
        s = slots.size;
        if (s >= capacity) grow();
        slots.set(id, s);
      }
      let d = dayIndex.get(latest.lastDate);
      if (d === undefined) dayIndex.set(latest.lastDate, (d = days.push(latest.lastDate) - 1));
      day[s] = d;
      last[s] = latest.lastCents;
      previous[s] = latest.previousCents ?? NaN;
      velocity[s] = latest.velocity24h ?? NaN;
      synthetic[s] = latest.synthetic ? 1 : 0;
    },
  };
}
