/**
 * Pokémon TCG. Sets belong to an era (the "series" of pokemontcg.io: Base, EX, Sword & Shield...),
 * which names the code prefix (`sv3`) and decides the rarity vocabulary; secret rares are numbered
 * past the printed total (201/198). The same species is printed in set after set.
 */
import { POKEMON_SET_ADJECTIVES, POKEMON_SET_NOUNS, POKEMON_TYPES, SPECIES_HEADS, SPECIES_TAILS, TRAINER_CARDS } from '../words.js';
import { weighted, type Rng } from '../prng.js';
import { dayNumber } from '../../../snapshots/dates.js';
import type { CardMaker, CardSetInfo, GameProfile, SetDraft, SetDraftContext, SetShape } from './profile.js';

type Era = 'classic' | 'modern' | 'scarlet';
const ERAS: readonly { from: string; series: string; prefix: string; era: Era }[] = [
  { from: '0000-01-01', series: 'Base', prefix: 'base', era: 'classic' },
  { from: '2000-12-16', series: 'Neo', prefix: 'neo', era: 'classic' },
  { from: '2002-09-15', series: 'E-Card', prefix: 'ecard', era: 'classic' },
  { from: '2003-06-18', series: 'EX', prefix: 'ex', era: 'classic' },
  { from: '2007-05-23', series: 'Diamond & Pearl', prefix: 'dp', era: 'classic' },
  { from: '2009-05-16', series: 'Platinum', prefix: 'pl', era: 'classic' },
  { from: '2010-02-10', series: 'HeartGold & SoulSilver', prefix: 'hgss', era: 'classic' },
  { from: '2011-04-25', series: 'Black & White', prefix: 'bw', era: 'classic' },
  { from: '2014-02-05', series: 'XY', prefix: 'xy', era: 'classic' },
  { from: '2017-02-03', series: 'Sun & Moon', prefix: 'sm', era: 'modern' },
  { from: '2020-02-07', series: 'Sword & Shield', prefix: 'swsh', era: 'modern' },
  { from: '2023-03-31', series: 'Scarlet & Violet', prefix: 'sv', era: 'scarlet' },
  { from: '2025-09-26', series: 'Mega Evolution', prefix: 'me', era: 'scarlet' },
];

const MAIN_RARITIES: Record<Era, readonly (readonly [string, number])[]> = {
  classic: [['Common', 38], ['Uncommon', 30], ['Rare', 14], ['Rare Holo', 12], ['Rare Holo EX', 4], ['Rare Ultra', 2]],
  modern: [['Common', 32], ['Uncommon', 28], ['Rare', 10], ['Rare Holo', 9], ['Rare Holo V', 11], ['Rare Holo VMAX', 4], ['Rare Ultra', 6]],
  scarlet: [['Common', 36], ['Uncommon', 30], ['Rare', 20], ['Double Rare', 14]],
};
const TAIL_RARITIES: Record<Era, readonly (readonly [string, number])[]> = {
  classic: [['Rare Secret', 70], ['Rare Holo LV.X', 30]],
  modern: [['Rare Rainbow', 45], ['Rare Secret', 35], ['Rare Shiny', 20]],
  scarlet: [['Illustration Rare', 50], ['Ultra Rare', 25], ['Special Illustration Rare', 18], ['Hyper Rare', 7]],
};
/** Card name suffix of the rule-box rarities ("Flamander ex"). */
const SUFFIX: Record<string, string> = {
  'Rare Holo EX': '-EX', 'Rare Holo V': ' V', 'Rare Holo VMAX': ' VMAX', 'Double Rare': ' ex', 'Ultra Rare': ' ex',
  'Special Illustration Rare': ' ex', 'Rare Ultra': ' GX', 'Rare Holo LV.X': ' LV.X',
};
const MEDIAN_CENTS: Record<string, number> = {
  Common: 12, Uncommon: 20, Rare: 60, 'Rare Holo': 180, 'Rare Holo EX': 900, 'Rare Ultra': 700, 'Rare Holo V': 250,
  'Rare Holo VMAX': 600, 'Double Rare': 150, 'Rare Secret': 2500, 'Rare Holo LV.X': 1500, 'Rare Rainbow': 1800,
  'Rare Shiny': 900, 'Illustration Rare': 600, 'Ultra Rare': 900, 'Special Illustration Rare': 6000, 'Hyper Rare': 3500,
};
/** Invented regional forms, used once the head x tail species names run out. */
const FORMS = ['', 'Coastal ', 'Highland ', 'Tundra ', 'Ember ', 'Shadow ', 'Crystal ', 'Ancient ', 'Iron '];

function eraOf(day: number) {
  let found = ERAS[0];
  for (const era of ERAS) if (day >= dayNumber(era.from)) found = era;
  return found;
}

function drawShape(rng: Rng): SetShape {
  const size = rng.int(100, 200);
  return { flavor: 'main', size, tail: Math.round(size * (rng.chance(0.5) ? rng.int(3, 8) : rng.int(15, 28)) / 100) };
}

function draftSet({ rng, day, codes, state }: SetDraftContext): SetDraft {
  const era = eraOf(day);
  const n = Number(state[era.prefix] ?? 0) + 1;
  state[era.prefix] = n;
  let code = `${era.prefix}${n}`;
  while (codes.has(code)) code = `${era.prefix}${n}pt${rng.int(2, 9)}`;
  return { code, name: `${rng.pick(POKEMON_SET_ADJECTIVES)} ${rng.pick(POKEMON_SET_NOUNS)}`, series: era.series };
}

/** The j-th species: head and tail lengths are coprime, so every pair comes once before a form is added. */
function speciesName(j: number): string {
  const pairs = SPECIES_HEADS.length * SPECIES_TAILS.length;
  const form = FORMS[Math.floor(j / pairs) % FORMS.length];
  return `${form}${SPECIES_HEADS[j % SPECIES_HEADS.length]}${SPECIES_TAILS[j % SPECIES_TAILS.length]}`;
}

function createCardMaker(_seed: number, gameCards: number): CardMaker {
  const species = Math.max(120, Math.round(gameCards / 12));
  let eraSet = '';
  let era: Era = 'classic';
  return (set: CardSetInfo, position: number, rng: Rng) => {
    if (set.code !== eraSet) {
      eraSet = set.code;
      era = eraOf(set.releasedDay).era;
    }
    const inTail = position >= set.size - set.tail;
    const rarity = weighted(rng, inTail ? TAIL_RARITIES[era] : MAIN_RARITIES[era]);
    // Secret rares are nearly all Pokémon (and no energy); the main run mixes in trainers and energy.
    const kind = rng.next() * (inTail ? 0.9 : 1);
    let name: string;
    if (kind < 0.78) name = `${speciesName(rng.skewed(species, 1.4))}${SUFFIX[rarity] ?? ''}`;
    else if (kind < 0.96) name = rng.pick(TRAINER_CARDS);
    else name = `Basic ${rng.pick(POKEMON_TYPES)} Energy`;
    return { name, rarity, oracleId: null, priceFactor: rng.logNormal(1, 0.6) };
  };
}

export const pokemon: GameProfile = {
  game: 'pokemon',
  share: 0.3,
  firstRelease: '1999-01-09',
  timeline: { kind: 'spread', latestGapDays: 45 },
  drawShape,
  draftSet,
  printedTotal: (set) => set.size - set.tail,
  cardNumber: (_set, position) => String(position + 1),
  cardId: (set, position) => `${set.code}-${position + 1}`,
  createCardMaker,
  medianCents: (rarity) => MEDIAN_CENTS[rarity] ?? 100,
  artistNullRate: 0.02,
};
