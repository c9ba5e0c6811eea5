/** The game profiles, in the order of GAMES (and of the generated sets). */
import type { GameProfile } from './profile.js';
import { mtg } from './mtg.js';
import { pokemon } from './pokemon.js';
import { lorcana } from './lorcana.js';
import { onepiece } from './onepiece.js';

export const GAME_PROFILES: readonly GameProfile[] = [mtg, pokemon, lorcana, onepiece];
