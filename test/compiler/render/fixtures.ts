// Record builders for the list-renderer tests: small, explicit catalogs built in each test.
import type {
  ActivityEventRecord, BinderRecord, CardRecord, FigureRecord, FigureSeriesRecord, SetRecord, UserRecord,
} from '../../../snapshots/records.js';
import type { PriceSummary } from '../../../compiler/render/types.js';
import { setMapKey, type CatalogIndex } from '../../../compiler/render/summaries.js';
import { createSparklinePoints } from '../../../compiler/render/discover-sparklines.js';

export function set(o: Partial<SetRecord> = {}): SetRecord {
  return { game: 'mtg', code: 'lea', name: 'Limited Edition Alpha', releasedAt: '1993-08-05', series: 'Core', printedTotal: 295, ...o };
}

export function card(id: string, o: Partial<CardRecord> = {}): CardRecord {
  return {
    id, game: 'mtg', setCode: 'lea', name: `Card ${id}`, number: '1', rarity: 'common', artist: 'Rebecca Guay',
    oracleId: null, imageUrl: `https://img.example/${id}.jpg`, releasedAt: '1993-08-05', addedAt: '2026-01-01', watchers: 0, ...o,
  };
}

export function series(id: string, o: Partial<FigureSeriesRecord> = {}): FigureSeriesRecord {
  return { id, name: `Series ${id}`, manufacturer: 'Acme', releasedAt: '2025-05-01', ...o };
}

export function figure(id: string, seriesId: string, o: Partial<FigureRecord> = {}): FigureRecord {
  return {
    id, seriesId, name: `Figure ${id}`, rarity: 'common', imageUrl: null, releasedAt: '2025-05-01', addedAt: '2025-05-02', watchers: 0, ...o,
  };
}

/** A price summary whose last price is `lastCents` on `lastDate`, with the day before at `previousCents` (an observed series). */
export function price(lastCents: number, previousCents: number | null, lastDate = '2026-11-20'): PriceSummary {
  const velocity = previousCents === null || previousCents === 0 ? null : Math.round(((lastCents - previousCents) / previousCents) * 1e4) / 1e4;
  const recentDaily: (number | null)[] = Array.from({ length: 30 }, () => null);
  recentDaily[29] = lastCents;
  recentDaily[28] = previousCents;
  return { lastDate, lastCents, previousCents, velocity24h: velocity, recentDaily, synthetic: false };
}

/** `price(...)` of a series made up for a demo (`catalog import --synthetic-prices`). */
export function syntheticPrice(lastCents: number, previousCents: number | null, lastDate = '2026-11-20'): PriceSummary {
  return { ...price(lastCents, previousCents, lastDate), synthetic: true };
}

export function user(id: string, o: Partial<UserRecord> = {}): UserRecord {
  return { id, handle: id, displayName: `Name ${id}`, showcase: true, anonymous: false, joinedAt: '2026-02-01T10:00:00.000Z', ...o };
}

export function binder(id: string, userId: string, o: Partial<BinderRecord> = {}): BinderRecord {
  return { id, userId, name: `Binder ${id}`, public: true, items: [], updatedAt: '2026-11-01T12:00:00.000Z', ...o };
}

export function event(id: string, at: string, o: Partial<ActivityEventRecord> = {}): ActivityEventRecord {
  return { id, userId: null, type: 'pull', entity: 'card', entityId: 'c1', at, ...o };
}

export interface IndexInput {
  sets?: SetRecord[];
  cards?: CardRecord[];
  series?: FigureSeriesRecord[];
  figures?: FigureRecord[];
  cardPrices?: [string, PriceSummary][];
  figurePrices?: [string, PriceSummary][];
}

export function indexOf(i: IndexInput): CatalogIndex {
  // The recent days kept the way the compile keeps them: every priced entity offered once.
  const sparklines = createSparklinePoints();
  const watchers = (list: { id: string; watchers: number }[] | undefined, id: string) => list?.find((r) => r.id === id)?.watchers ?? 0;
  for (const [id, p] of i.cardPrices ?? []) sparklines.offer('card', id, watchers(i.cards, id), p.recentDaily);
  for (const [id, p] of i.figurePrices ?? []) sparklines.offer('figure', id, watchers(i.figures, id), p.recentDaily);
  return {
    sparklinePoints: sparklines.points(),
    sets: new Map((i.sets ?? []).map((s) => [setMapKey(s.game, s.code), s])),
    cards: new Map((i.cards ?? []).map((c) => [c.id, c])),
    series: new Map((i.series ?? []).map((s) => [s.id, s])),
    figures: new Map((i.figures ?? []).map((f) => [f.id, f])),
    prices: { card: new Map(i.cardPrices ?? []), figure: new Map(i.figurePrices ?? []) },
  };
}

/** A deterministic shuffle (seeded LCG), to show that output does not depend on input order. */
export function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let s = seed >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Every key path of a JSON object ("a", "a.b"), to compare item shapes; arrays are not entered. */
export function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return [];
  if (value !== null && typeof value === 'object') {
    return Object.keys(value).sort().flatMap((k) => [`${prefix}${k}`, ...keyPaths((value as Record<string, unknown>)[k], `${prefix}${k}.`)]);
  }
  return [];
}
