/**
 * The artist pool: a fixed number of distinct names (index -> name, see names.personName) drawn with
 * a skew, as in real sets where a few illustrators paint a large share of the cards. A uniform part
 * keeps every artist in several sets and games rather than one card in one set.
 */
import { personName } from './names.js';
import { seedFraction, type Rng } from './prng.js';
import { FIRST_NAMES, LAST_NAMES } from './words.js';

export type ArtistPicker = (rng: Rng) => string;

export function createArtistPicker(seed: number, artists: number): ArtistPicker {
  const shift = Math.floor(seedFraction(seed, 'artists') * FIRST_NAMES.length * LAST_NAMES.length);
  return (rng) => personName(rng.chance(0.7) ? rng.skewed(artists, 1.5) : rng.int(0, artists - 1), shift);
}
