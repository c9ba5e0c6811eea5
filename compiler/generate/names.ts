/**
 * Name builders shared by the game profiles, figures and users. Names that must be unique (artists)
 * are built from their index, not drawn, so uniqueness holds at any catalog size without a lookup
 * table in memory.
 */
import { FIRST_NAMES, LAST_NAMES } from './words.js';
import type { Rng } from './prng.js';

const MIDDLE_INITIALS = 'ABCDEFGHJKLMNPRSTVW';

/**
 * The `index`-th person name of a pool: distinct for every index. FIRST_NAMES and LAST_NAMES have
 * coprime lengths, so (i mod F, i mod L) runs through every pair once (Chinese remainder theorem)
 * before a middle initial and then a number are added.
 */
export function personName(index: number, shift: number): string {
  const pairs = FIRST_NAMES.length * LAST_NAMES.length;
  const i = (index % pairs + shift) % pairs;
  const first = FIRST_NAMES[i % FIRST_NAMES.length];
  const last = LAST_NAMES[i % LAST_NAMES.length];
  const round = Math.floor(index / pairs);
  if (round === 0) return `${first} ${last}`;
  if (round <= MIDDLE_INITIALS.length) return `${first} ${MIDDLE_INITIALS[round - 1]}. ${last}`;
  return `${first} ${last} ${round - MIDDLE_INITIALS.length + 1}`;
}

/** A display name for a user: sometimes only the initial of the last name, as people do. */
export function displayName(rng: Rng): string {
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  return rng.chance(0.3) ? `${first} ${last[0]}.` : `${first} ${last}`;
}

export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/** Folds a name to lowercase ASCII letters and digits (set codes are built from it). */
export function foldLetters(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[^a-z0-9 ]+/g, '');
}

const CODE_STOP_WORDS = new Set(['of', 'the', 'to', 'a', 'and', 'in', 'on', 'over']);
const CODE_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A short lowercase code for a set name ("Shadows of Ashvale" -> "sha", then "sas", ...), unique
 * within `taken`. Falls back to random codes, longer once the short ones get crowded.
 */
export function setCodeFor(name: string, taken: Set<string>, rng: Rng, length = 3): string {
  const words = foldLetters(name).split(' ').filter((w) => w.length > 0 && !CODE_STOP_WORDS.has(w));
  const candidates: string[] = [];
  if (words.length >= 3) candidates.push(words.map((w) => w[0]).join('').slice(0, length));
  if (words.length >= 2) candidates.push(words[0][0] + words[1].slice(0, length - 1));
  if (words.length >= 1) candidates.push(words[0].slice(0, length));
  if (words.length >= 2) candidates.push(words[0].slice(0, 2) + words[words.length - 1][0]);
  for (const c of candidates) {
    if (c.length === length && /^[a-z]/.test(c) && !taken.has(c)) return c;
  }
  for (let attempt = 0; ; attempt += 1) {
    const len = length + Math.floor(attempt / 20);
    let code = CODE_CHARS[rng.int(0, 25)];
    while (code.length < len) code += CODE_CHARS[rng.int(0, CODE_CHARS.length - 1)];
    if (!taken.has(code)) return code;
  }
}
