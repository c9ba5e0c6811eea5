// Records for the entity renderer tests: realistic field lengths, so the size-budget test measures
// what a real card document weighs.
import type { CardRecord, FigureRecord, FigureSeriesRecord, FxRateRecord, PriceSeriesRecord, SetRecord } from '../../../snapshots/records.js';
import { dayNumber, dayString } from '../../../snapshots/dates.js';

export const set: SetRecord = {
  game: 'mtg', code: 'm21', name: 'Core Set 2021', releasedAt: '2020-07-03', series: 'Core Sets', printedTotal: 274,
};

export function card(overrides: Partial<CardRecord> = {}): CardRecord {
  return {
    id: 'mtg-m21-162',
    game: 'mtg',
    setCode: 'm21',
    name: 'Lightning Bolt',
    number: '162',
    rarity: 'uncommon',
    artist: 'Christopher Rush',
    oracleId: '4457ed35-7c10-48c8-9776-456485fdf070',
    imageUrl: 'https://cards.scryfall.io/large/front/e/3/e3285e6b-3e79-4d7c-bf96-d920f973b122.jpg',
    releasedAt: '2020-07-03',
    addedAt: '2020-06-20',
    watchers: 1200,
    ...overrides,
  };
}

export const figureSeries: FigureSeriesRecord = { id: 'fs-moonlit', name: 'Moonlit Garden Blind Box', manufacturer: 'Pop Mart', releasedAt: '2025-03-01' };

export function figure(overrides: Partial<FigureRecord> = {}): FigureRecord {
  return {
    id: 'fig-moonlit-07',
    seriesId: 'fs-moonlit',
    name: 'Night Gardener',
    rarity: 'secret',
    imageUrl: 'https://img.example.com/figures/fs-moonlit/fig-moonlit-07.png',
    releasedAt: '2025-03-01',
    addedAt: '2025-02-20',
    watchers: 80,
    ...overrides,
  };
}

export function series(entity: 'card' | 'figure', id: string, start: string, usdCents: (number | null)[]): PriceSeriesRecord {
  return { entity, id, start, usdCents };
}

/** A deterministic random walk of `days` daily prices ending on `end`, around `base` cents. */
export function walk(entity: 'card' | 'figure', id: string, end: string, days: number, base = 12_345): PriceSeriesRecord {
  let seed = 42;
  let price = base;
  const usdCents: number[] = [];
  for (let i = 0; i < days; i++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    price = Math.max(1, Math.round(price * (1 + ((seed / 2_147_483_648) - 0.5) * 0.06)));
    usdCents.push(price);
  }
  return { entity, id, start: dayString(dayNumber(end) - days + 1), usdCents };
}

/** Weekday ECB-style rates for all four currencies from `start` to `end` (weekends have no rate). */
export function weekdayRates(start: string, end: string): FxRateRecord[] {
  const base = { EUR: 0.9213, GBP: 0.7868, CAD: 1.3721, AUD: 1.5234 } as const;
  const rows: FxRateRecord[] = [];
  for (let d = dayNumber(start); d <= dayNumber(end); d++) {
    const weekday = (((d + 3) % 7) + 7) % 7; // 0 = Monday
    if (weekday >= 5) continue;
    for (const currency of ['EUR', 'GBP', 'CAD', 'AUD'] as const) {
      rows.push({ date: dayString(d), currency, perUsd: Math.round((base[currency] + ((d % 17) - 8) / 10_000) * 10_000) / 10_000, source: 'ecb' });
    }
  }
  return rows;
}

/** Every key path of a JSON value, arrays seen through their first element; null stops the walk. */
export function keyPaths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.length === 0 ? [] : keyPaths(value[0], `${prefix}[]`);
  return Object.keys(value).sort().flatMap((k) => [`${prefix}.${k}`, ...keyPaths((value as Record<string, unknown>)[k], `${prefix}.${k}`)]);
}
