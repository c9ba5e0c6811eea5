/**
 * What the generator needs to know about one game: how its sets are shaped, coded and named, how
 * its collector numbers and ids look, its rarities and what they cost. One file per game implements
 * this; plan.ts and cards.ts stay game-agnostic.
 */
import type { Game } from '../../../snapshots/records.js';
import type { Rng } from '../prng.js';

/** A set's shape, drawn before its release day is known (the day depends on how many sets there are). */
export interface SetShape {
  /** Game-specific kind of product ("core", "masters", "starter"...): drives names, rarities and reprints. */
  flavor: string;
  size: number;
  /** Cards numbered after the main run: MTG basic lands, Pokémon secret rares, Lorcana enchanted. */
  tail: number;
}

export interface SetDraftContext {
  rng: Rng;
  day: number;
  flavor: string;
  /** Codes already used in this game. */
  codes: Set<string>;
  /** Per-game memory kept across the game's sets (edition numbers, the current block...). */
  state: Record<string, string | number>;
}

export interface SetDraft {
  code: string;
  name: string;
  series: string | null;
}

/** The fields of a set a card needs. */
export interface CardSetInfo {
  code: string;
  flavor: string;
  size: number;
  tail: number;
  releasedDay: number;
}

export interface CardDraft {
  name: string;
  rarity: string;
  oracleId: string | null;
  /** Price multiplier of the card's concept (a staple costs more in every printing). */
  priceFactor: number;
}

/** Makes the cards of a game in catalog order; may keep state across sets (MTG's oracle concepts). */
export type CardMaker = (set: CardSetInfo, position: number, rng: Rng) => CardDraft;

export interface GameProfile {
  game: Game;
  /** Share of the catalog's cards. */
  share: number;
  /** First release of the real game, `YYYY-MM-DD`. */
  firstRelease: string;
  /**
   * How release days are laid out. `spread`: evenly from the first release to `latestGapDays` before
   * asOf (long-running games: small catalogs still span the decades). `cadence`: one set every
   * `everyDays` from the first release, squeezed when there are too many to fit (young games).
   */
  timeline: { kind: 'spread'; latestGapDays: number } | { kind: 'cadence'; everyDays: number };
  /** Shape of the game's `index`-th set (oldest first). */
  drawShape(rng: Rng, index: number): SetShape;
  draftSet(ctx: SetDraftContext): SetDraft;
  printedTotal(set: CardSetInfo): number | null;
  cardNumber(set: CardSetInfo, position: number): string;
  cardId(set: CardSetInfo, position: number): string;
  createCardMaker(seed: number, gameCards: number): CardMaker;
  /** Median USD cents of a rarity (prices are drawn log-normally around it). */
  medianCents(rarity: string): number;
  /** Share of cards printed without artist credit. */
  artistNullRate: number;
}
