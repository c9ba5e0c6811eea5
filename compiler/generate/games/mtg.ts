/**
 * Magic: The Gathering. What makes it different: oracle concepts. One rules object is printed many
 * times (core sets are mostly reprints, masters sets entirely), staples get reprinted again and again,
 * and the five basic lands appear in nearly every set (20+ printings each), as in MTGJSON.
 */
import { BASIC_LANDS, FANTASY_ADJECTIVES, FANTASY_CREATURES, FANTASY_PLACES, FANTASY_THINGS, HERO_NAMES, HERO_TITLES, SET_WORDS_A, SPELL_VERBS } from '../words.js';
import { hash128, rngFor, weighted, type Rng } from '../prng.js';
import { ordinal, setCodeFor } from '../names.js';
import { yearOf } from '../../../snapshots/dates.js';
import type { CardMaker, CardSetInfo, GameProfile, SetDraft, SetDraftContext, SetShape } from './profile.js';

const FLAVORS = [['expansion', 70], ['core', 15], ['masters', 15]] as const;
const REPRINT_RATE: Record<string, number> = { expansion: 0.2, core: 0.65, masters: 1 };
const MASTERS_WORDS = ['Modern', 'Eternal', 'Ultimate', 'Iconic', 'Double', 'Legacy', 'Timeless', 'Vintage', 'Commander'];
/** Mythic rare arrived with Shards of Alara (2008); older sets have three rarities. */
const MYTHIC_FROM_YEAR = 2008;
const RARITIES_OLD = [['common', 45], ['uncommon', 33], ['rare', 22]] as const;
const RARITIES = [['common', 39], ['uncommon', 31], ['rare', 23], ['mythic', 7]] as const;
const RARITIES_MASTERS = [['common', 35], ['uncommon', 30], ['rare', 25], ['mythic', 10]] as const;
const MEDIAN_CENTS: Record<string, number> = { common: 18, uncommon: 35, rare: 250, mythic: 1400 };
/** Concepts k with k % STAPLE_EVERY === STAPLE_AT are staples: reprinted far more, priced higher. */
const STAPLE_EVERY = 41;
const STAPLE_AT = 7;

function drawShape(rng: Rng, index: number): SetShape {
  // Every third set at least is a reprint set (core or masters), so even a small catalog has
  // concepts printed across sets.
  const flavor = index % 3 === 2 ? (rng.chance(0.5) ? 'masters' : 'core') : weighted(rng, FLAVORS);
  const size = flavor === 'masters' ? rng.int(220, 300) : rng.int(250, 300);
  const tail = flavor === 'masters' ? 0 : 5 * rng.int(2, 4);
  return { flavor, size, tail };
}

function draftSet({ rng, day, flavor, codes, state }: SetDraftContext): SetDraft {
  const year = yearOf(day);
  if (flavor === 'core') {
    if (year < 2009) {
      const n = Number(state.edition ?? 3) + 1;
      state.edition = n;
      const code = codes.has(`${n}ed`) ? setCodeFor(`edition ${n}`, codes, rng) : `${n}ed`;
      return { code, name: `${ordinal(n)} Edition`, series: 'Core Set' };
    }
    const preferred = `m${String(year % 100).padStart(2, '0')}`;
    if (!codes.has(preferred)) return { code: preferred, name: `Core Set ${year}`, series: 'Core Set' };
    const name = `Core Set ${year} Collector's Edition`;
    return { code: setCodeFor(name, codes, rng), name, series: 'Core Set' };
  }
  if (flavor === 'masters') {
    const name = rng.chance(0.7) ? `${rng.pick(MASTERS_WORDS)} Masters` : `${rng.pick(FANTASY_PLACES)} Remastered`;
    return { code: setCodeFor(name, codes, rng), name, series: 'Masters' };
  }
  const place = rng.pick(FANTASY_PLACES);
  const pattern = rng.int(0, 2);
  const name = pattern === 0 ? place : pattern === 1 ? `${rng.pick(SET_WORDS_A)} of ${place}` : `${rng.pick(FANTASY_ADJECTIVES)} ${place}`;
  // Blocks (up to three expansions within about a year, named after the first) ended in 2017.
  let series: string | null = null;
  if (year < 2017) {
    if (!(Number(state.blockLeft ?? 0) > 0) || day - Number(state.blockDay) > 400) {
      state.block = `${name} Block`;
      state.blockDay = day;
      state.blockLeft = 3;
    }
    state.blockLeft = Number(state.blockLeft) - 1;
    series = String(state.block);
  }
  return { code: setCodeFor(name, codes, rng), name, series };
}

/** A uuid-shaped oracle id. Its last 8 hex digits are a bijection of k, so two concepts never share one. */
function oracleIdOf(seed: number, mask: number, k: number): string {
  const [a, b, c] = hash128(`${seed}|oracle-id|${k}`);
  const hex8 = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
  const h = hex8(a) + hex8(b) + hex8(c) + hex8(Math.imul(k + 1, 0x9e3779b1) ^ mask);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[c & 3]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function conceptName(rng: Rng): string {
  switch (rng.int(0, 6)) {
    case 0:
      return `${rng.pick(FANTASY_ADJECTIVES)} ${rng.pick(FANTASY_CREATURES)}`;
    case 1:
      return `${rng.pick(FANTASY_THINGS)} of ${rng.pick(FANTASY_PLACES)}`;
    case 2:
      return `${rng.pick(HERO_NAMES)}, ${rng.pick(HERO_TITLES)}`;
    case 3:
      return `${rng.pick(SPELL_VERBS)} the ${rng.pick(FANTASY_CREATURES)}`;
    case 4:
      return `${rng.pick(FANTASY_PLACES)} ${rng.pick(FANTASY_CREATURES)}`;
    case 5:
      return `${rng.pick(HERO_NAMES)}'s ${rng.pick(FANTASY_THINGS)}`;
    default:
      return `${rng.pick(FANTASY_ADJECTIVES)} ${rng.pick(FANTASY_THINGS)}`;
  }
}

function createCardMaker(seed: number): CardMaker {
  const mask = hash128(`${seed}|oracle-id`)[0];
  let concepts = BASIC_LANDS.length; // concepts 0..4 are the basic lands
  let currentSet = '';
  const usedInSet = new Set<number>();

  const concept = (k: number) => {
    if (k < BASIC_LANDS.length) return { name: BASIC_LANDS[k], factor: 0.4 };
    const rng = rngFor(seed, 'mtg-oracle', k);
    const name = conceptName(rng);
    const staple = k % STAPLE_EVERY === STAPLE_AT;
    return { name, factor: rng.logNormal(1, 0.7) * (staple ? 4 : 1) };
  };

  const pickReprint = (rng: Rng): number | null => {
    const stapleCount = concepts > STAPLE_AT ? Math.floor((concepts - 1 - STAPLE_AT) / STAPLE_EVERY) + 1 : 0;
    for (let attempt = 0; attempt < 4; attempt += 1) {
      // Old concepts are reprinted more than new ones (the skew), staples most of all.
      const k = stapleCount > 0 && rng.chance(0.25)
        ? STAPLE_AT + STAPLE_EVERY * rng.int(0, stapleCount - 1)
        : BASIC_LANDS.length + rng.skewed(concepts - BASIC_LANDS.length, 1.6);
      if (!usedInSet.has(k)) return k;
    }
    return null;
  };

  return (set: CardSetInfo, position: number, rng: Rng) => {
    if (set.code !== currentSet) {
      currentSet = set.code;
      usedInSet.clear();
    }
    const mainSize = set.size - set.tail;
    let k: number;
    let rarity: string;
    if (position >= mainSize) {
      k = (position - mainSize) % BASIC_LANDS.length;
      rarity = 'common';
    } else {
      const reprint = concepts > 30 && rng.chance(REPRINT_RATE[set.flavor] ?? 0.1) ? pickReprint(rng) : null;
      k = reprint ?? concepts++;
      usedInSet.add(k);
      const table = set.flavor === 'masters' ? RARITIES_MASTERS : yearOf(set.releasedDay) < MYTHIC_FROM_YEAR ? RARITIES_OLD : RARITIES;
      rarity = weighted(rng, table);
    }
    const { name, factor } = concept(k);
    return { name, rarity, oracleId: oracleIdOf(seed, mask, k), priceFactor: factor };
  };
}

export const mtg: GameProfile = {
  game: 'mtg',
  share: 0.4,
  firstRelease: '1993-08-05',
  timeline: { kind: 'spread', latestGapDays: 25 },
  drawShape,
  draftSet,
  printedTotal: (set) => set.size - set.tail,
  cardNumber: (_set, position) => String(position + 1),
  cardId: (set, position) => `mtg-${set.code}-${position + 1}`,
  createCardMaker,
  medianCents: (rarity) => MEDIAN_CENTS[rarity] ?? 50,
  artistNullRate: 0.005,
};
