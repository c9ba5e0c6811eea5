// A small catalog with every kind of record, public and private people mixed, and a function that
// renders every list/aggregate document from it (what a compile publishes from these renderers).
import type { Envelope } from '../../../snapshots/envelope.js';
import type { ActivityEventRecord, BinderRecord, PullObservationRecord, UserRecord } from '../../../snapshots/records.js';
import { groupArtists, renderArtistPages } from '../../../compiler/render/artist-pages.js';
import { renderDiscoverActivity } from '../../../compiler/render/discover-activity.js';
import { renderDiscoverBinders } from '../../../compiler/render/discover-binders.js';
import { renderDiscoverSets } from '../../../compiler/render/discover-sets.js';
import { renderDiscoverSparklines } from '../../../compiler/render/discover-sparklines.js';
import { renderDiscoverUsers } from '../../../compiler/render/discover-users.js';
import { renderAllPullStats } from '../../../compiler/render/pull-stats.js';
import { renderRecent } from '../../../compiler/render/recent.js';
import { renderSeriesPages } from '../../../compiler/render/series-pages.js';
import { renderSetPages } from '../../../compiler/render/set-pages.js';
import { renderAllShowcases } from '../../../compiler/render/showcase.js';
import { renderCatalogSummary, type PriceRange } from '../../../compiler/render/summary.js';
import { renderTrending } from '../../../compiler/render/trending.js';
import type { CatalogIndex } from '../../../compiler/render/summaries.js';
import { binder, card, event, figure, indexOf, price, series, set, shuffled, syntheticPrice, user, type IndexInput } from './fixtures.js';

export interface SampleCatalog {
  input: IndexInput;
  users: UserRecord[];
  binders: BinderRecord[];
  events: ActivityEventRecord[];
  observations: PullObservationRecord[];
  priceRange: PriceRange;
}

/** Names of people who must never appear in a published document. */
export const HIDDEN = {
  optedOut: { id: 'user-optedout-7f3', handle: 'optedout-handle', displayName: 'Optedout Displayname' },
  anonymous: { id: 'user-anon-9c1', displayName: 'Anonymous Displayname' },
  privateBinder: { id: 'binder-private-4d2', name: 'Private Binder Name' },
  hiddenOwnerBinder: { id: 'binder-optedout-public-8e5', name: 'Optedout Public Binder Name' },
};

export function sampleCatalog(): SampleCatalog {
  const sets = [
    set(),
    set({ game: 'pokemon', code: 'base1', name: 'Base Set', releasedAt: '1999-01-09', series: 'Base', printedTotal: 102 }),
    set({ game: 'lorcana', code: 'tfc', name: 'The First Chapter', releasedAt: '2023-08-18', series: null, printedTotal: 204 }),
  ];
  const cards = [
    card('lea-1', { number: '1', artist: 'Rebecca Guay', oracleId: 'o-1', watchers: 40 }),
    card('lea-10', { number: '10', artist: 'Hervé Ink', oracleId: 'o-2', watchers: 12 }),
    card('lea-2', { number: '2', artist: 'Herve Ink', oracleId: 'o-1', watchers: 3 }),
    card('lea-2a', { number: '2a', artist: null, oracleId: null, imageUrl: null }),
    card('base1-4', { game: 'pokemon', setCode: 'base1', number: '4', rarity: 'rare holo', artist: 'Mitsuhiro Arita', releasedAt: '1999-01-09', addedAt: '2026-05-01', watchers: 99 }),
    card('tfc-1', { game: 'lorcana', setCode: 'tfc', number: '1', artist: 'Rebecca Guay', releasedAt: '2023-08-18', addedAt: '2026-06-01' }),
  ];
  const figureSeries = [series('s1'), series('s2', { releasedAt: '2026-01-01' })];
  const figures = [
    figure('f-a', 's1'), figure('f-b', 's1', { rarity: 'rare', watchers: 50 }), figure('f-c', 's2', { rarity: 'secret' }),
  ];
  const input: IndexInput = {
    sets, cards, series: figureSeries, figures,
    cardPrices: [['lea-1', price(25000, 20000)], ['lea-10', price(150, 149)], ['base1-4', price(30000, 31000, '2026-11-19')], ['tfc-1', syntheticPrice(50, 10)]],
    figurePrices: [['f-b', price(4000, 2000)]],
  };
  const users = [
    user('user-public-1', { handle: 'alice', displayName: 'Alice A', joinedAt: '2026-03-01T00:00:00.000Z' }),
    user('user-public-2', { handle: 'bob', displayName: null, joinedAt: '2026-04-01T00:00:00.000Z' }),
    user(HIDDEN.optedOut.id, { handle: HIDDEN.optedOut.handle, displayName: HIDDEN.optedOut.displayName, showcase: false }),
    user(HIDDEN.anonymous.id, { handle: null, displayName: HIDDEN.anonymous.displayName, anonymous: true, showcase: true }),
    // Opted in but anonymous with a handle left over: anonymous wins.
    user('user-anon-handle-3b', { handle: 'anon-leftover-handle', displayName: 'Anon Leftover', anonymous: true }),
  ];
  const items = [{ entity: 'card' as const, id: 'lea-1' }, { entity: 'figure' as const, id: 'f-b' }, { entity: 'card' as const, id: 'gone' },
    { entity: 'card' as const, id: 'base1-4' }, { entity: 'card' as const, id: 'lea-2' }, { entity: 'card' as const, id: 'tfc-1' }];
  const binders = [
    binder('binder-alice-1', 'user-public-1', { name: 'Alice Binder', items, updatedAt: '2026-11-02T00:00:00.000Z' }),
    binder('binder-bob-1', 'user-public-2', { name: 'Bob Binder', items: items.slice(0, 2) }),
    binder(HIDDEN.privateBinder.id, 'user-public-1', { name: HIDDEN.privateBinder.name, public: false, items }),
    binder(HIDDEN.hiddenOwnerBinder.id, HIDDEN.optedOut.id, { name: HIDDEN.hiddenOwnerBinder.name, items }),
    binder('binder-anon-5a', HIDDEN.anonymous.id, { name: 'Anon Binder Name', items }),
  ];
  const events = [
    ...Array.from({ length: 6 }, (_, i) => event(`e-alice-${i}`, '2026-11-20T10:00:00.000Z', { userId: 'user-public-1', type: 'binder_add' })),
    event('e-hidden', '2026-11-19T10:00:00.000Z', { userId: HIDDEN.optedOut.id, type: 'price_alert', entityId: 'lea-10' }),
  ];
  const observations: PullObservationRecord[] = [
    { id: 'obs-1', seriesId: 's1', userId: HIDDEN.optedOut.id, observedAt: '2026-10-01T00:00:00.000Z', boxes: 12, pulls: { 'f-a': 9, 'f-b': 2 } },
    { id: 'obs-2', seriesId: 's2', userId: HIDDEN.anonymous.id, observedAt: '2026-10-02T00:00:00.000Z', boxes: 3, pulls: { 'f-c': 1 } },
  ];
  return { input, users, binders, events, observations, priceRange: { from: '2024-01-01', to: '2026-11-20' } };
}

/** The same catalog with every array in another order. */
export function reordered(c: SampleCatalog, seed: number): SampleCatalog {
  const i = c.input;
  return {
    input: {
      sets: shuffled(i.sets ?? [], seed), cards: shuffled(i.cards ?? [], seed + 1), series: shuffled(i.series ?? [], seed + 2),
      figures: shuffled(i.figures ?? [], seed + 3), cardPrices: shuffled(i.cardPrices ?? [], seed + 4), figurePrices: shuffled(i.figurePrices ?? [], seed + 5),
    },
    users: shuffled(c.users, seed + 6), binders: shuffled(c.binders, seed + 7), events: shuffled(c.events, seed + 8),
    observations: shuffled(c.observations, seed + 9), priceRange: c.priceRange,
  };
}

/** Every document these renderers produce for the catalog, by a name that says where it goes. */
export function renderEverything(c: SampleCatalog): Map<string, Envelope<unknown>> {
  const index: CatalogIndex = indexOf(c.input);
  const docs = new Map<string, Envelope<unknown>>();
  const addPages = (name: string, pages: Envelope<unknown>[]) => pages.forEach((p, i) => docs.set(`${name}/page-${i + 1}`, p));
  const priced = (id: string) => index.prices.card.get(id) ?? null;

  for (const s of [...index.sets.values()]) {
    const cards = [...index.cards.values()].filter((k) => k.game === s.game && k.setCode === s.code).map((k) => ({ card: k, summary: priced(k.id) }));
    addPages(`sets/${s.game}/${s.code}`, renderSetPages(s, cards));
  }
  for (const [slug, group] of groupArtists(index.cards.values())) {
    addPages(`artists/${slug}`, renderArtistPages(slug, group.name, group.cards.map((k) => ({ card: k, summary: priced(k.id) })), index.sets));
  }
  for (const s of index.series.values()) {
    const figures = [...index.figures.values()].filter((f) => f.seriesId === s.id).map((f) => ({ figure: f, summary: index.prices.figure.get(f.id) ?? null }));
    addPages(`figures/series/${s.id}`, renderSeriesPages(s, figures));
  }
  for (const { seriesId, document } of renderAllPullStats(index.series.values(), [...index.figures.values()], c.observations)) {
    docs.set(`series/${seriesId}/pull-stats`, document);
  }
  const lists = [
    ...renderTrending(index), ...renderRecent(index), renderDiscoverSets(index), renderDiscoverUsers(c.users, c.binders),
    renderDiscoverBinders(c.users, c.binders, index), renderDiscoverActivity(c.events), renderDiscoverSparklines(index),
  ];
  for (const l of lists) addPages(JSON.stringify(l.family), l.pages);
  for (const s of renderAllShowcases(c.users, c.binders, index)) {
    docs.set(`u/${s.handle}`, s.showcase);
    addPages(`u/${s.handle}/binders`, s.binders.pages);
  }
  docs.set('catalog/summary', renderCatalogSummary({ index, users: c.users, binders: c.binders, priceRange: c.priceRange }));
  return docs;
}
