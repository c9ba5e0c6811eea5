/**
 * Cards and their price series, set by set: each card is made from its own stream (seed, game, set,
 * position), written, and forgotten; only the current set's oracle bookkeeping lives in memory.
 */
import type { CardRecord, PriceSeriesRecord } from '../../snapshots/records.js';
import type { CardMaker } from './games/profile.js';
import type { CatalogPlan } from './plan.js';
import type { NdjsonWriter } from './write.js';
import { createArtistPicker } from './artists.js';
import { dayString } from '../../snapshots/dates.js';
import { rngFor } from './prng.js';
import { priceWalk, watchersFor } from './prices.js';

const NO_PRICE_RATE = 0.05;
/** Cards of old sets that entered the catalog only lately (backfilled promos, corrections). */
const LATE_ADDITION_RATE = 0.005;
const IMAGE_BASE = 'https://images.synthetic-catalog.invalid';

export interface CardsOutcome {
  cards: number;
  priceSeries: number;
}

export async function writeCards(
  plan: CatalogPlan,
  out: { cards: NdjsonWriter; prices: NdjsonWriter },
  advance: (units: number) => void,
): Promise<CardsOutcome> {
  const pickArtist = createArtistPicker(plan.seed, plan.artists);
  const makers = new Map<string, CardMaker>();
  let priceSeries = 0;
  for (const set of plan.sets) {
    let make = makers.get(set.game);
    if (make === undefined) {
      const gameCards = plan.sets.filter((s) => s.game === set.game).reduce((n, s) => n + s.size, 0);
      make = set.profile.createCardMaker(plan.seed, gameCards);
      makers.set(set.game, make);
    }
    const releasedAt = set.record.releasedAt;
    const ageYears = (plan.asOfDay - set.releasedDay) / 365;
    for (let position = 0; position < set.size; position += 1) {
      const rng = rngFor(plan.seed, 'card', set.game, set.code, position);
      const draft = make(set, position, rng);
      const id = set.profile.cardId(set, position);
      const number = set.profile.cardNumber(set, position);
      const artist = rng.chance(set.profile.artistNullRate) ? null : pickArtist(rng);
      let addedDay = set.addedDay;
      if (rng.chance(LATE_ADDITION_RATE)) addedDay = Math.max(addedDay, plan.asOfDay - rng.int(0, 59));
      const median = set.profile.medianCents(draft.rarity);
      // Out-of-print chase cards appreciate; bulk does not.
      const age = median >= 100 ? 1 + Math.min(ageYears, 30) / 12 : 1;
      const cents = Math.min(5_000_000, Math.max(3, Math.round(median * draft.priceFactor * age * rng.logNormal(1, 0.45))));
      const fresh = plan.asOfDay - set.releasedDay < 90;
      const card: CardRecord = {
        id,
        game: set.game,
        setCode: set.code,
        name: draft.name,
        number,
        rarity: draft.rarity,
        artist,
        oracleId: draft.oracleId,
        imageUrl: rng.chance(0.02) ? null : `${IMAGE_BASE}/${set.game}/${set.code}/${encodeURIComponent(number)}.jpg`,
        releasedAt,
        addedAt: dayString(addedDay),
        watchers: watchersFor(rng, cents, fresh),
      };
      await out.cards.write(card);
      if (!rng.chance(NO_PRICE_RATE)) {
        const start = Math.max(plan.historyStartDay, addedDay);
        const series: PriceSeriesRecord = {
          entity: 'card',
          id,
          start: dayString(start),
          usdCents: priceWalk(rngFor(plan.seed, 'price', 'card', id), cents, plan.asOfDay - start + 1),
        };
        await out.prices.write(series);
        priceSeries += 1;
      }
    }
    advance(set.size);
  }
  return { cards: plan.cards, priceSeries };
}
