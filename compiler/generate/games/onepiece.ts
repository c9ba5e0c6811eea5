/**
 * One Piece Card Game. Products are booster packs (OP-xx), starter decks (ST-xx) and extra boosters
 * (EB-xx); the collector number carries the product ("OP01-001") and is also the card id, as on the
 * official card list. The official list credits no artists, so many cards have none.
 */
import { ONEPIECE_DECK_NAMES, ONEPIECE_SET_NAMES, PIRATE_ATTACKS, PIRATE_EPITHETS, PIRATE_FAMILY, PIRATE_GIVEN, PIRATE_MOVES, FANTASY_PLACES } from '../words.js';
import { weighted, type Rng } from '../prng.js';
import type { CardMaker, CardSetInfo, GameProfile, SetDraft, SetDraftContext, SetShape } from './profile.js';

const FLAVORS = [['booster', 75], ['starter', 15], ['extra', 10]] as const;
const PREFIX: Record<string, string> = { booster: 'op', starter: 'st', extra: 'eb' };
const SERIES: Record<string, string> = { booster: 'Booster Pack', starter: 'Starter Deck', extra: 'Extra Booster' };
const RARITIES = [['Leader', 5], ['Common', 38], ['Uncommon', 26], ['Rare', 18], ['SuperRare', 9], ['SecretRare', 2], ['Special', 2]] as const;
const EXTRA_NAMES = ['Memorial Collection', 'Anniversary Collection', 'Heroines Edition', 'Film Festival', 'Premium Crew'];
const MEDIAN_CENTS: Record<string, number> = { Leader: 90, Common: 10, Uncommon: 20, Rare: 60, SuperRare: 300, SecretRare: 3500, Special: 1500 };

function drawShape(rng: Rng): SetShape {
  const flavor = weighted(rng, FLAVORS);
  const size = flavor === 'booster' ? rng.int(118, 126) : flavor === 'starter' ? rng.int(17, 30) : rng.int(80, 100);
  return { flavor, size, tail: 0 };
}

function draftSet({ rng, flavor, codes, state }: SetDraftContext): SetDraft {
  const n = Number(state[flavor] ?? 0) + 1;
  state[flavor] = n;
  const code = `${PREFIX[flavor]}-${String(n).padStart(2, '0')}`;
  // Names from the lists in order first (they do not repeat), then numbered variations.
  const list = flavor === 'starter' ? ONEPIECE_DECK_NAMES : flavor === 'extra' ? EXTRA_NAMES : ONEPIECE_SET_NAMES;
  const name = n <= list.length ? list[n - 1] : `${rng.pick(list)} ${n}`;
  return { code: codes.has(code) ? `${code}-${rng.int(10, 99)}` : code, name, series: SERIES[flavor] };
}

/** "op-01" -> "OP01": the product part of a collector number. */
function productOf(code: string): string {
  return code.replace(/-/g, '').toUpperCase();
}

function createCardMaker(): CardMaker {
  return (_set: CardSetInfo, _position: number, rng: Rng) => {
    const rarity = weighted(rng, RARITIES);
    const kind = rarity === 'Leader' ? 0 : rng.next();
    let name: string;
    if (kind < 0.5) name = `${rng.pick(PIRATE_GIVEN)} ${rng.pick(PIRATE_FAMILY)}`;
    else if (kind < 0.82) name = `${rng.pick(PIRATE_GIVEN)} ${rng.pick(PIRATE_EPITHETS)}`;
    else if (kind < 0.97) name = `${rng.pick(PIRATE_ATTACKS)} ${rng.pick(PIRATE_MOVES)}`;
    else name = rng.pick(FANTASY_PLACES);
    return { name, rarity, oracleId: null, priceFactor: rng.logNormal(1, 0.6) };
  };
}

export const onepiece: GameProfile = {
  game: 'onepiece',
  share: 0.15,
  firstRelease: '2022-07-08',
  timeline: { kind: 'cadence', everyDays: 60 },
  drawShape,
  draftSet,
  printedTotal: () => null,
  cardNumber: (set, position) => `${productOf(set.code)}-${String(position + 1).padStart(3, '0')}`,
  cardId: (set, position) => `${productOf(set.code)}-${String(position + 1).padStart(3, '0')}`,
  createCardMaker,
  medianCents: (rarity) => MEDIAN_CENTS[rarity] ?? 50,
  artistNullRate: 0.3,
};
