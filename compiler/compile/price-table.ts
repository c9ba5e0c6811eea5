/**
 * Each entity's price line number and LatestPrice, kept in flat typed arrays for the whole compile
 * instead of one object per entity.
 *
 * The summaries live from the entity phase to the end of the aggregates: at a million cards a
 * million objects, each with a heap number for its velocity, that survived two young-generation
 * collections and were copied into the old generation one by one (the scavenges of an incremental
 * compile's entity phase were mostly that copying). Here an entity is a slot of six columns; the
 * object the renderers read is made when they ask for it (`get`) and dies young.
 *
 * The same slot holds the line the entity's price series is on, which the price stream's duplicate
 * check records (`lines()`: source/prices.ts `seen`), and the token of the entity's input: one map of
 * a million ids per compile instead of three. An entity whose series has no price at all has a line
 * and no LatestPrice: `has` and `get` answer for the LatestPrice, as the renderers read them.
 *
 * The values are exactly the ones set: cents and velocity as float64 (-0 kept), a missing
 * previousCents or velocity as NaN (neither is ever NaN when present: summarizePrices), the day as
 * the index of its string in a list of the distinct days (most series end on one of a few).
 *
 * Made with the catalog's ids (`createPriceTable(catalog.cards.keys())`), the table gives entity i of
 * the catalog's order slot i before any line is read: the aggregates, which walk the catalog in that
 * order, then read each entity's price and token by position (`inOrder`), with no look-up by id.
 *
 * @example
 *   const prices = createPriceTable();
 *   prices.lines().set(card.id, 17);     // the stream's duplicate check: first seen on line 17
 *   prices.set(card.id, { lastDate: '2026-11-20', lastCents: 1250, previousCents: null, velocity24h: null, synthetic: false });
 *   prices.get(card.id)   // an equal LatestPrice (a new object each call)
 */
import type { IdOrder, LatestPrice, PriceLookup } from '../render/types.js';
import type { LineMarks } from '../source/index.js';

export interface PriceTable extends PriceLookup {
  /** Sets (or replaces) an entity's price; returns its slot (for setTokenAt). */
  set(id: string, latest: LatestPrice): number;
  /** `set` for the entity in `slot` (one the table gave: made with the catalog's order, or by `set`). */
  setAt(slot: number, latest: LatestPrice): void;
  /** `setAt` from the fields, with NaN for a missing previousCents or velocity (a stored line's, read in place). */
  setFieldsAt(slot: number, lastDate: string, lastCents: number, previousCents: number, velocity: number, synthetic: boolean): void;
  /** The line numbers, in the same slots. */
  lines(): LineMarks;
  /**
   * Records the token of an entity's input (object-table.ts entityToken), priced or not, in its slot:
   * a million entities' tokens in a map of their own took 1.4 s of an incremental compile to fill.
   */
  setToken(id: string, token: string): void;
  /** setToken for the slot `set` returned. */
  setTokenAt(slot: number, token: string): void;
  /** The token recorded for `id`; undefined for an entity the compile did not see. */
  token(id: string): string | undefined;
  /** Whether the entity in `slot` has a line recorded (`lines()`), read by place. */
  hasLineAt(slot: number): boolean;
}

const FIRST_CAPACITY = 1024;
/** No line recorded (line numbers start at 1). */
const NO_LINE = 0;
/** No LatestPrice in the slot. */
const NO_DAY = -1;

export function createPriceTable(order: Iterable<string> | IdOrder = []): PriceTable {
  /** The slots of ids given as strings (an Iterable order) or not in the order (`set` of another id). */
  const slots = new Map<string, number>();
  /** The ids given slots 0..n-1 up front, in order, as strings (an Iterable `order`). */
  let ordered: string[] = [];
  /** The order given as an IdOrder (a card table's columns): slot i is its position i, no map of its ids made. */
  const known: IdOrder | null = isIdOrder(order) ? order : null;
  /** Slots handed out. */
  let total = 0;
  const days: string[] = [];
  const dayIndex = new Map<string, number>();
  let capacity = 0;
  let priced = 0;
  let line = new Float64Array(0);
  let day = new Int32Array(0);
  let last = new Float64Array(0);
  let previous = new Float64Array(0);
  let velocity = new Float64Array(0);
  let synthetic = new Uint8Array(0);
  const tokens: string[] = [];

  const grow = (atLeast = 0) => {
    capacity = Math.max(FIRST_CAPACITY, capacity * 2, atLeast);
    const widen = <T extends Int32Array | Float64Array | Uint8Array>(from: T, to: T): T => {
      to.set(from);
      return to;
    };
    line = widen(line, new Float64Array(capacity));
    day = widen(day, new Int32Array(capacity).fill(NO_DAY));
    last = widen(last, new Float64Array(capacity));
    previous = widen(previous, new Float64Array(capacity));
    velocity = widen(velocity, new Float64Array(capacity));
    synthetic = widen(synthetic, new Uint8Array(capacity));
  };
  const slotIfAny = (id: string): number | undefined => {
    if (known !== null) {
      const at = known.indexOf(id);
      if (at >= 0) return at;
    }
    return slots.get(id);
  };
  const slotOf = (id: string): number => {
    let s = slotIfAny(id);
    if (s === undefined) {
      s = total++;
      if (s >= capacity) grow();
      slots.set(id, s);
    }
    return s;
  };
  // Slots 0..n-1 for the catalog's order (an id given twice keeps its first slot). The catalog's ids
  // are a map's keys, distinct: one map operation each and the columns sized once (three operations
  // and a dozen doublings were 0.9-1.4 s of a million-card compile); a list with an id twice is
  // taken one id at a time.
  if (known !== null) {
    // Distinct ids (a catalog's): their positions are their slots.
    total = known.length;
    if (capacity < total) grow(total);
  } else {
    const given = [...(order as Iterable<string>)];
    for (let i = 0; i < given.length; i++) slots.set(given[i], i);
    if (slots.size === given.length) {
      if (capacity < given.length) grow(given.length);
      ordered = given;
      total = given.length;
    } else {
      slots.clear();
      for (const id of given) {
        if (slots.has(id)) continue;
        slotOf(id);
        ordered.push(id);
      }
    }
  }
  const marks: LineMarks = {
    get(id) {
      const s = slotIfAny(id);
      return s === undefined || line[s] === NO_LINE ? undefined : line[s];
    },
    set(id, lineNo) {
      // The slot first: making it may grow the columns (`line[slotOf(id)]` would write the old one).
      const s = slotOf(id);
      line[s] = lineNo;
    },
    claim(id, lineNo) {
      return claimAt(slotOf(id), lineNo);
    },
    claimAt: (s, lineNo) => claimAt(s, lineNo),
  };
  function claimAt(s: number, lineNo: number): number | undefined {
    if (line[s] !== NO_LINE) return line[s];
    line[s] = lineNo;
    return undefined;
  }
  function setAt(s: number, latest: LatestPrice): void {
    setFieldsAt(s, latest.lastDate, latest.lastCents, latest.previousCents ?? NaN, latest.velocity24h ?? NaN, latest.synthetic);
  }
  function setFieldsAt(s: number, lastDate: string, lastCents: number, previousCents: number, velocityNow: number, isSynthetic: boolean): void {
    let d = dayIndex.get(lastDate);
    if (d === undefined) dayIndex.set(lastDate, (d = days.push(lastDate) - 1));
    if (day[s] === NO_DAY) priced++;
    day[s] = d;
    last[s] = lastCents;
    previous[s] = previousCents;
    velocity[s] = velocityNow;
    synthetic[s] = isSynthetic ? 1 : 0;
  }

  /** The LatestPrice in slot `s` (made when asked: it dies young), or undefined for none. */
  const latestAt = (s: number | undefined): LatestPrice | undefined => {
    if (s === undefined || s < 0 || day[s] === NO_DAY) return undefined;
    const p = previous[s];
    const v = velocity[s];
    return { lastDate: days[day[s]], lastCents: last[s], previousCents: Number.isNaN(p) ? null : p, velocity24h: Number.isNaN(v) ? null : v, synthetic: synthetic[s] === 1 };
  };

  return {
    get size() {
      return priced;
    },
    has(id) {
      const s = slotIfAny(id);
      return s !== undefined && day[s] !== NO_DAY;
    },
    get: (id) => latestAt(slotIfAny(id)),
    inOrder(order) {
      // The order the table was made with: position i is slot i, nothing looked up.
      if (order === known || (Array.isArray(order) && known === null && sameIds(order, ordered))) {
        return { get: (i) => latestAt(i), has: (i) => day[i] !== NO_DAY, lastDate: (i) => (day[i] === NO_DAY ? undefined : days[day[i]]), token: (i) => tokens[i] };
      }
      // Each position's slot, -1 for an id the table has no slot for: the only look-ups by id. Made
      // once every price and token is set (the aggregates): an id seen after this is not.
      const ids = Array.isArray(order) ? order : Array.from({ length: order.length }, (_, i) => (order as IdOrder).id(i));
      const at = new Int32Array(ids.length);
      for (let i = 0; i < ids.length; i++) at[i] = slotIfAny(ids[i]) ?? -1;
      return {
        get: (i) => latestAt(at[i]),
        has: (i) => at[i] >= 0 && day[at[i]] !== NO_DAY,
        lastDate: (i) => (at[i] < 0 || day[at[i]] === NO_DAY ? undefined : days[day[at[i]]]),
        token: (i) => (at[i] < 0 ? undefined : tokens[at[i]]),
      };
    },
    set(id, latest) {
      const s = slotOf(id);
      setAt(s, latest);
      return s;
    },
    setAt: (s, latest) => setAt(s, latest),
    setFieldsAt,
    lines: () => marks,
    setToken(id, token) {
      tokens[slotOf(id)] = token;
    },
    setTokenAt(slot, token) {
      tokens[slot] = token;
    },
    hasLineAt: (s) => s >= 0 && s < total && line[s] !== NO_LINE,
    token(id) {
      const s = slotIfAny(id);
      return s === undefined ? undefined : tokens[s];
    },
  };
}

/**
 * Whether `ids` are `ordered`, id for id. The catalog's order is given twice as the same strings (the
 * keys of its map are its records' ids), so each comparison is one of identity.
 */
function sameIds(ids: readonly string[], ordered: readonly string[]): boolean {
  if (ids.length !== ordered.length) return false;
  for (let i = 0; i < ids.length; i++) if (ids[i] !== ordered[i]) return false;
  return true;
}

function isIdOrder(order: Iterable<string> | IdOrder): order is IdOrder {
  return typeof (order as Partial<IdOrder>).indexOf === 'function' && typeof (order as Partial<IdOrder>).id === 'function';
}
