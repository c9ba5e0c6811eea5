/**
 * The catalog plan: everything small enough to hold at any size (about one entry per 200 cards),
 * decided before a single card is written: how many cards each game gets, every set with its shape,
 * code and release day, every figure series, and the counts of users, artists and events. Cards,
 * prices, binders and activity are then made one at a time from the plan, and any card or figure id
 * can be found from its index alone (binary search over the sets), so nothing big is kept.
 */
import { FIGURE_RARITIES, type FigureRarity, type FigureSeriesRecord, type Game, type SetRecord } from '../../snapshots/records.js';
import { GAME_PROFILES } from './games/index.js';
import type { CardSetInfo, GameProfile, SetShape } from './games/profile.js';
import { dayNumber, dayString } from '../../snapshots/dates.js';
import { rngFor, weighted, type Rng } from './prng.js';
import { FIGURE_FRANCHISES, MANUFACTURERS } from './words.js';

/** Days of price history of an entity tracked since before the window (about 2.5 years, so >= 730). */
export const HISTORY_DAYS = 900;
/** The catalog service went live this long before the price window opened; older sets were imported then. */
const LAUNCH_BEFORE_HISTORY = 365;
/** Cards per figure series, users and events per card (ARCHITECTURE's proportions). */
const CARDS_PER_SERIES = 200;
const CARDS_PER_ARTIST = 25;
const CARDS_PER_USER = 10;
const CARDS_PER_EVENT = 2;

export interface SetPlan extends CardSetInfo {
  game: Game;
  profile: GameProfile;
  record: SetRecord;
  /** Catalog-wide index of the set's first card. */
  firstIndex: number;
  addedDay: number;
}

export interface SeriesPlan {
  record: FigureSeriesRecord;
  rarities: FigureRarity[];
  firstIndex: number;
  releasedDay: number;
  addedDay: number;
}

export interface CatalogPlan {
  seed: number;
  asOf: string;
  asOfDay: number;
  historyStartDay: number;
  launchDay: number;
  sets: SetPlan[];
  cards: number;
  series: SeriesPlan[];
  figures: number;
  artists: number;
  users: number;
  activity: number;
}

/** Splits `total` by shares, largest remainders first, so the parts add up exactly. */
export function apportion(total: number, shares: readonly number[]): number[] {
  const sum = shares.reduce((a, b) => a + b, 0);
  const raw = shares.map((s) => (total * s) / sum);
  const parts = raw.map(Math.floor);
  const order = raw.map((r, i) => [r - Math.floor(r), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const left = total - parts.reduce((a, b) => a + b, 0);
  for (let k = 0; k < left; k += 1) parts[order[k % parts.length][1]] += 1;
  return parts;
}

/** Release days of `count` sets of a game, oldest first. */
function releaseDays(profile: GameProfile, count: number, asOfDay: number, rng: Rng): number[] {
  // A catalog dated before the game existed still gets a plausible timeline.
  const first = Math.min(dayNumber(profile.firstRelease), asOfDay - 3 * 365);
  const days: number[] = [];
  if (profile.timeline.kind === 'spread') {
    const end = asOfDay - profile.timeline.latestGapDays;
    const spacing = count > 1 ? (end - first) / (count - 1) : 0;
    for (let i = 0; i < count; i += 1) {
      if (count === 1) days.push(Math.round((first + end) / 2));
      else if (i === 0 || i === count - 1) days.push(Math.round(first + i * spacing));
      else days.push(Math.round(first + (i + (rng.next() - 0.5) * 0.6) * spacing));
    }
  } else {
    const room = asOfDay - 20 - first;
    const spacing = count > 1 ? Math.min(profile.timeline.everyDays, room / (count - 1)) : 0;
    for (let i = 0; i < count; i += 1) {
      const jitter = i > 0 ? Math.round((rng.next() - 0.5) * Math.min(14, spacing * 0.4)) : 0;
      days.push(Math.round(first + i * spacing) + jitter);
    }
  }
  return days;
}

/** When a set's cards entered the catalog: at launch for old sets, with pre-orders for new ones. */
function addedDayOf(releasedDay: number, launchDay: number, rng: Rng): number {
  return releasedDay >= launchDay ? Math.max(launchDay, releasedDay - rng.int(0, 14)) : launchDay + rng.int(0, 60);
}

function planSets(seed: number, cards: number, asOfDay: number, launchDay: number): SetPlan[] {
  const counts = apportion(cards, GAME_PROFILES.map((p) => p.share));
  const sets: SetPlan[] = [];
  let firstIndex = 0;
  GAME_PROFILES.forEach((profile, g) => {
    const rng = rngFor(seed, 'sets', profile.game);
    const shapes: SetShape[] = [];
    for (let sum = 0; sum < counts[g]; ) {
      const shape = profile.drawShape(rng, shapes.length);
      if (sum + shape.size > counts[g]) {
        // The newest set takes what is left: a small set, like a promo run.
        shape.size = counts[g] - sum;
        shape.tail = Math.min(shape.tail, Math.floor(shape.size / 8));
      }
      shapes.push(shape);
      sum += shape.size;
    }
    const days = releaseDays(profile, shapes.length, asOfDay, rng);
    const codes = new Set<string>();
    const state: Record<string, string | number> = {};
    shapes.forEach((shape, i) => {
      const draft = profile.draftSet({ rng, day: days[i], flavor: shape.flavor, codes, state });
      codes.add(draft.code);
      const info: CardSetInfo = { code: draft.code, flavor: shape.flavor, size: shape.size, tail: shape.tail, releasedDay: days[i] };
      const record: SetRecord = {
        game: profile.game,
        code: draft.code,
        name: draft.name,
        releasedAt: dayString(days[i]),
        series: draft.series,
        printedTotal: profile.printedTotal(info),
      };
      sets.push({ ...info, game: profile.game, profile, record, firstIndex, addedDay: addedDayOf(days[i], launchDay, rng) });
      firstIndex += shape.size;
    });
  });
  return sets;
}

/** Rarity of each figure of a series of `size`: one secret, a chase or two, mostly commons. */
export function seriesRarities(size: number): FigureRarity[] {
  const ultra = size >= 11 ? 2 : 1;
  const rare = size >= 12 ? 3 : size >= 8 ? 2 : 1;
  const uncommon = Math.round((size - 1 - ultra - rare) * 0.35);
  const common = size - 1 - ultra - rare - uncommon;
  const counts: Record<FigureRarity, number> = { common, uncommon, rare, ultra, secret: 1 };
  return FIGURE_RARITIES.flatMap((r) => new Array<FigureRarity>(counts[r]).fill(r));
}

function planSeries(seed: number, count: number, asOfDay: number, launchDay: number): SeriesPlan[] {
  const rng = rngFor(seed, 'figure-series');
  const first = asOfDay - 8 * 365;
  const last = asOfDay - 10;
  const width = String(count).length > 4 ? String(count).length : 4;
  const perFranchise = new Map<string, number>();
  const series: SeriesPlan[] = [];
  let firstIndex = 0;
  for (let i = 0; i < count; i += 1) {
    const spacing = count > 1 ? (last - first) / (count - 1) : 0;
    const releasedDay = count > 1 ? Math.round(first + i * spacing + (i > 0 && i < count - 1 ? (rng.next() - 0.5) * 0.6 * spacing : 0)) : last;
    const franchise = rng.pick(FIGURE_FRANCHISES);
    const n = (perFranchise.get(franchise) ?? 0) + 1;
    perFranchise.set(franchise, n);
    const size = rng.int(6, 15);
    const record: FigureSeriesRecord = {
      id: `fs-${String(i + 1).padStart(width, '0')}`,
      name: `${franchise} Series ${n}`,
      manufacturer: rng.chance(0.05) ? null : weighted(rng, MANUFACTURERS.map((m, k) => [m, MANUFACTURERS.length - k] as const)),
      releasedAt: dayString(releasedDay),
    };
    series.push({ record, rarities: seriesRarities(size), firstIndex, releasedDay, addedDay: addedDayOf(releasedDay, launchDay, rng) });
    firstIndex += size;
  }
  return series;
}

export function planCatalog(options: { cards: number; seed: number; asOf: string }): CatalogPlan {
  const { cards, seed, asOf } = options;
  const asOfDay = dayNumber(asOf);
  const historyStartDay = asOfDay - HISTORY_DAYS + 1;
  const launchDay = historyStartDay - LAUNCH_BEFORE_HISTORY;
  const sets = planSets(seed, cards, asOfDay, launchDay);
  const series = planSeries(seed, Math.max(3, Math.round(cards / CARDS_PER_SERIES)), asOfDay, launchDay);
  const last = series[series.length - 1];
  return {
    seed,
    asOf,
    asOfDay,
    historyStartDay,
    launchDay,
    sets,
    cards,
    series,
    figures: last.firstIndex + last.rarities.length,
    artists: Math.max(20, Math.round(cards / CARDS_PER_ARTIST)),
    users: Math.max(50, Math.round(cards / CARDS_PER_USER)),
    activity: Math.max(50, Math.round(cards / CARDS_PER_EVENT)),
  };
}

function findByFirstIndex<T extends { firstIndex: number }>(items: readonly T[], index: number): T {
  let lo = 0;
  let hi = items.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (items[mid].firstIndex <= index) lo = mid;
    else hi = mid - 1;
  }
  return items[lo];
}

/** Id of the catalog's `index`-th card (0 <= index < plan.cards), without making the card. */
export function cardIdAt(plan: CatalogPlan, index: number): string {
  const set = findByFirstIndex(plan.sets, index);
  return set.profile.cardId(set, index - set.firstIndex);
}

/** Id of the catalog's `index`-th figure. */
export function figureIdAt(plan: CatalogPlan, index: number): string {
  const series = findByFirstIndex(plan.series, index);
  return figureId(series, index - series.firstIndex);
}

export function figureId(series: SeriesPlan, position: number): string {
  return `${series.record.id}-${String(position + 1).padStart(2, '0')}`;
}
