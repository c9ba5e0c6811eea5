/**
 * Disney Lorcana. Sets are numbered ("1", "2"...), 204 cards plus up to 12 Enchanted numbered past
 * 204; characters come in many versions ("Name - Version"), songs and items have plain names.
 */
import { FANTASY_ADJECTIVES, FANTASY_THINGS, LORCANA_CHARACTERS, LORCANA_SET_NAMES, LORCANA_SONGS, LORCANA_VERSIONS } from '../words.js';
import { weighted, type Rng } from '../prng.js';
import type { CardMaker, CardSetInfo, GameProfile, SetDraft, SetDraftContext, SetShape } from './profile.js';

const MAIN_SIZE = 204;
const RARITIES = [['Common', 36], ['Uncommon', 27], ['Rare', 18], ['Super Rare', 12], ['Legendary', 7]] as const;
const MEDIAN_CENTS: Record<string, number> = { Common: 12, Uncommon: 25, Rare: 70, 'Super Rare': 250, Legendary: 1200, Enchanted: 9000 };

function drawShape(rng: Rng): SetShape {
  const tail = rng.chance(0.6) ? 12 : rng.int(0, 12);
  return { flavor: 'main', size: MAIN_SIZE + tail, tail };
}

function draftSet({ rng, codes, state }: SetDraftContext): SetDraft {
  const n = Number(state.number ?? 0) + 1;
  state.number = n;
  const code = String(n);
  const names = LORCANA_SET_NAMES;
  // The list is used in order first, then in new combinations, as a long-running game would.
  const name = n <= names.length ? names[n - 1] : `${rng.pick(names)}: Chapter ${n}`;
  return { code: codes.has(code) ? `${n}-${rng.int(10, 99)}` : code, name, series: null };
}

function createCardMaker(): CardMaker {
  return (set: CardSetInfo, position: number, rng: Rng) => {
    const inTail = position >= set.size - set.tail;
    const rarity = inTail ? 'Enchanted' : weighted(rng, RARITIES);
    const kind = inTail ? 0 : rng.next();
    let name: string;
    if (kind < 0.8) name = `${LORCANA_CHARACTERS[rng.skewed(LORCANA_CHARACTERS.length, 1.3)]} - ${rng.pick(LORCANA_VERSIONS)}`;
    else if (kind < 0.9) name = rng.pick(LORCANA_SONGS);
    else name = `${rng.pick(FANTASY_ADJECTIVES)} ${rng.pick(FANTASY_THINGS)}`;
    return { name, rarity, oracleId: null, priceFactor: rng.logNormal(1, 0.5) };
  };
}

export const lorcana: GameProfile = {
  game: 'lorcana',
  share: 0.15,
  firstRelease: '2023-08-18',
  timeline: { kind: 'cadence', everyDays: 91 },
  drawShape,
  draftSet,
  printedTotal: (set) => set.size - set.tail,
  cardNumber: (_set, position) => String(position + 1),
  cardId: (set, position) => `lorcana-${set.code}-${position + 1}`,
  createCardMaker,
  medianCents: (rarity) => MEDIAN_CENTS[rarity] ?? 50,
  artistNullRate: 0.01,
};
