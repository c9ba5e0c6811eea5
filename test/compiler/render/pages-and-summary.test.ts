import { describe, expect, it } from 'vitest';
import { groupArtists, renderArtistPages } from '../../../compiler/render/artist-pages.js';
import { renderSeriesPages } from '../../../compiler/render/series-pages.js';
import { renderShowcases } from '../../../compiler/render/showcase.js';
import { extendPriceRange, renderCatalogSummary } from '../../../compiler/render/summary.js';
import { card, figure, indexOf, price, series, set, syntheticPrice } from './fixtures.js';
import { sampleCatalog } from './sample-catalog.js';

describe('groupArtists and renderArtistPages', () => {
  it('when names slug the same then the artists merge under the most frequent spelling; null artists are left out', () => {
    const groups = groupArtists([
      card('a', { artist: 'Hervé Ink' }), card('b', { artist: 'Herve Ink' }), card('c', { artist: 'Herve Ink' }),
      card('d', { artist: null }), card('e', { artist: 'Amy Weber' }),
    ]);
    expect([...groups.keys()]).toEqual(['amy-weber', 'herve-ink']);
    expect(groups.get('herve-ink')!.name).toBe('Herve Ink');
    expect(groups.get('herve-ink')!.cards.map((c) => c.id)).toEqual(['a', 'b', 'c']);
  });

  it('when an artist has printings in several games then they are listed newest release first, then id', () => {
    const c = sampleCatalog();
    const index = indexOf(c.input);
    const group = groupArtists(index.cards.values()).get('rebecca-guay')!;
    const [page] = renderArtistPages('rebecca-guay', group.name, group.cards.map((k) => ({ card: k, summary: index.prices.card.get(k.id) ?? null })), index.sets);
    expect(page.kind).toBe('artist');
    expect(page.data.map((i) => [i.id, i.game, i.set.name])).toEqual([['tfc-1', 'lorcana', 'The First Chapter'], ['lea-1', 'mtg', 'Limited Edition Alpha']]);
    // tfc-1's series was made up for a demo, lea-1's observed.
    expect(page.data.map((i) => [i.id, i.priceSynthetic])).toEqual([['tfc-1', true], ['lea-1', false]]);
  });
});

describe('renderSeriesPages', () => {
  it('when figures have several tiers then they are sorted by tier, then name, then id', () => {
    const s = series('s');
    const figures = [
      figure('z', 's', { rarity: 'secret', name: 'Alpha' }), figure('y', 's', { rarity: 'common', name: 'Zed' }),
      figure('x2', 's', { rarity: 'common', name: 'Alpha' }), figure('x1', 's', { rarity: 'common', name: 'Alpha' }), figure('w', 's', { rarity: 'rare', name: 'Alpha' }),
    ].map((f) => ({ figure: f, summary: f.id === 'w' ? price(999, 900) : null }));
    const [page] = renderSeriesPages(s, figures);
    expect(page.data.map((f) => f.id)).toEqual(['x1', 'x2', 'y', 'w', 'z']);
    expect(page.data[3]).toEqual({
      entity: 'figure', id: 'w', name: 'Alpha', rarity: 'rare', series: { id: 's', name: 'Series s' }, imageUrl: null,
      marketCents: 999, priceDate: '2026-11-20T00:00:00.000Z', priceSynthetic: false,
    });
  });

  it('when a figure\'s price series was made up for a demo then its item says priceSynthetic: true, observed false, unpriced null', () => {
    const [page] = renderSeriesPages(series('s'), [
      { figure: figure('a', 's'), summary: syntheticPrice(700, 650) },
      { figure: figure('b', 's'), summary: price(700, 650) },
      { figure: figure('c', 's'), summary: null },
    ]);
    expect(page.data.map((f) => [f.id, f.marketCents, f.priceSynthetic])).toEqual([['a', 700, true], ['b', 700, false], ['c', null, null]]);
  });
});

describe('renderShowcases', () => {
  it('when a user is public then the profile lists public binders and the binder pages hold their known items', () => {
    const c = sampleCatalog();
    const alice = c.users.find((u) => u.handle === 'alice')!;
    const docs = renderShowcases(alice, c.binders, indexOf(c.input))!;
    expect(docs.showcase).toMatchObject({
      kind: 'showcase', page: null, asOf: '2026-11-02T00:00:00.000Z',
      data: { handle: 'alice', displayName: 'Alice A', joinedAt: '2026-03-01T00:00:00.000Z', binders: [{ id: 'binder-alice-1', name: 'Alice Binder', itemCount: 6, updatedAt: '2026-11-02T00:00:00.000Z' }] },
    });
    expect(docs.binders.family).toEqual({ kind: 'showcaseBinders', handle: 'alice' });
    const [page] = docs.binders.pages;
    expect(page.kind).toBe('showcaseBinders');
    expect(page.data[0].items.map((i) => i.id)).toEqual(['lea-1', 'f-b', 'base1-4', 'lea-2', 'tfc-1']);
    // lea-2 has no price; tfc-1's series was made up for a demo.
    expect(page.data[0].items.map((i) => i.priceSynthetic)).toEqual([false, false, false, null, true]);
  });
});

describe('renderCatalogSummary', () => {
  it('when the catalog is rendered then totals and per-game counts agree, oracle concepts only for MTG, and people counted only if public', () => {
    const c = sampleCatalog();
    const doc = renderCatalogSummary({ index: indexOf(c.input), users: c.users, binders: c.binders, priceRange: c.priceRange });
    expect(doc).toMatchObject({ kind: 'catalogSummary', page: null, asOf: '2026-11-20T00:00:00.000Z' });
    expect(doc.data).toEqual({
      cards: {
        total: 6,
        byGame: { mtg: 4, pokemon: 1, lorcana: 1, onepiece: 0 },
        priced: 4,
        pricedByGame: { mtg: 2, pokemon: 1, lorcana: 1, onepiece: 0 },
        oracleConcepts: { total: 2, byGame: { mtg: 2, pokemon: null, lorcana: null, onepiece: null } },
        artists: 3, // rebecca-guay, herve-ink (two spellings), mitsuhiro-arita
      },
      sets: { total: 3, byGame: { mtg: 1, pokemon: 1, lorcana: 1, onepiece: 0 } },
      figures: { total: 3, priced: 1, series: 2 },
      publicUsers: 2,
      publicBinders: 2,
      currencies: ['USD', 'EUR', 'GBP', 'CAD', 'AUD'],
      priceRange: { from: '2024-01-01T00:00:00.000Z', to: '2026-11-20T00:00:00.000Z' },
    });
  });

  it('when the compile passes the artist groups it made then the summary is the one that counts the slugs itself', () => {
    const c = sampleCatalog();
    const index = indexOf(c.input);
    const counted = renderCatalogSummary({ index, users: c.users, binders: c.binders, priceRange: c.priceRange });
    const given = renderCatalogSummary({ index, users: c.users, binders: c.binders, priceRange: c.priceRange, artists: groupArtists(index.cards.values()).size });
    expect(given).toEqual(counted);
    expect(given.data.cards.artists).toBe(3);
  });

  it('when price series stream past then extendPriceRange keeps the first and last priced day', () => {
    let range = extendPriceRange(null, { entity: 'card', id: 'a', start: '2026-01-30', usdCents: [null, 5, 6, null] });
    expect(range).toEqual({ from: '2026-01-31', to: '2026-02-01' });
    range = extendPriceRange(range, { entity: 'figure', id: 'b', start: '2025-12-31', usdCents: [7] });
    range = extendPriceRange(range, { entity: 'card', id: 'c', start: '2027-01-01', usdCents: [null, null] });
    expect(range).toEqual({ from: '2025-12-31', to: '2026-02-01' });
  });

  it('when there are no prices then priceRange is null', () => {
    const doc = renderCatalogSummary({ index: indexOf({ sets: [set()] }), users: [], binders: [], priceRange: null });
    expect(doc.data.priceRange).toBeNull();
    expect(doc.data.cards.oracleConcepts.byGame).toEqual({ mtg: 0, pokemon: null, lorcana: null, onepiece: null });
    expect(doc.data.cards.byGame).toEqual({ mtg: 0, pokemon: 0, lorcana: 0, onepiece: 0 });
    expect(doc.data.cards.total).toBe(0);
    expect(doc.asOf).toBeNull();
  });
});
