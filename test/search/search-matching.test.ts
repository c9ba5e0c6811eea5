import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, ids, q, search, type Fixture } from './fixture.js';

let fx: Fixture;
beforeAll(() => {
  fx = createFixture();
});
afterAll(async () => {
  await fx.cleanup();
});

describe('GET /v1/search matching', () => {
  it('finds a card by a whole word of its name and answers an enveloped search page', async () => {
    const { res, body } = await search(fx.app, q('lightning'));
    expect(res.status).toBe(200);
    expect(body.apiVersion).toBe('v1');
    expect(body.kind).toBe('search');
    expect(body.asOf).toBe('2026-11-20T00:00:00.000Z');
    expect(ids(body)).toEqual(['mtg-lightning-bolt']);
    expect(body.data[0]).toMatchObject({ kind: 'card', id: 'mtg-lightning-bolt', game: 'mtg', name: 'Lightning Bolt', setName: 'Alpha', match: 'nameStart' });
    expect(body.page).toEqual({ page: 1, limit: 20, total: 1, totalPages: 1, hasMore: false });
    expect(body.warnings).toEqual([]);
  });

  it('matches every word as a word prefix, all words required', async () => {
    expect(ids((await search(fx.app, q('light bo'))).body)).toEqual(['mtg-lightning-bolt']);
    expect(ids((await search(fx.app, q('bolt light'))).body)).toEqual(['mtg-lightning-bolt']);
    expect(ids((await search(fx.app, q('lightning zebra'))).body)).toEqual([]);
  });

  it('answers 2-letter type-ahead with prefix matches', async () => {
    const { body } = await search(fx.app, q('ch'));
    expect(ids(body)).toEqual(expect.arrayContaining(['pkm-charizard', 'pkm-charmander', 'mtg-chandra', 'fig-chara']));
    expect(ids(body)).not.toContain('mtg-bolt');
  });

  it('matches a 1-character word as a whole word only', async () => {
    const { body } = await search(fx.app, q('monkey d'));
    expect(ids(body)).toEqual(['op-luffy']);
    // "d" is not a prefix: "Dark ..." and "Dragon" names are not found by it.
    const single = await search(fx.app, q('d'));
    expect(ids(single.body)).toEqual(['op-luffy']);
  });

  it('folds diacritics both ways', async () => {
    expect(ids((await search(fx.app, q('seance'))).body).sort()).toEqual(['lor-seance', 'pkm-seance']);
    expect(ids((await search(fx.app, q('Séance'))).body).sort()).toEqual(['lor-seance', 'pkm-seance']);
    expect(ids((await search(fx.app, q('SÉANCE MED'))).body)).toEqual(['pkm-seance']);
    expect(ids((await search(fx.app, q('herve'))).body)).toEqual(['pkm-seance']);
  });

  it('treats an apostrophe as part of the word', async () => {
    expect(ids((await search(fx.app, q('urzas'))).body)).toEqual(['mtg-urza-saga']);
    expect(ids((await search(fx.app, q("urza's saga"))).body)).toEqual(['mtg-urza-saga']);
    expect(ids((await search(fx.app, q('urza'))).body)).toEqual(['mtg-urza-saga']);
  });

  it('matches set names, artists and collector numbers too', async () => {
    expect(ids((await search(fx.app, q('christopher rush'))).body)).toEqual(['mtg-lightning-bolt']);
    expect(ids((await search(fx.app, q('alpha'))).body)).toEqual(['mtg-lightning-bolt']);
    expect(ids((await search(fx.app, q('op01-001'))).body)).toEqual(['op-luffy']);
    const bySet = await search(fx.app, q('bolt expansion'));
    expect(bySet.body.data).toEqual([expect.objectContaining({ id: 'mtg-thunderbolt-ring', match: 'anyField' })]);
  });

  it('without a prefix searches cards, figures and sets', async () => {
    const kinds = new Set((await search(fx.app, q('bolt'))).body.data.map((d) => d.kind));
    expect(kinds).toEqual(new Set(['card', 'figure', 'set']));
  });

  it('a game prefix narrows to cards of that game', async () => {
    const { body } = await search(fx.app, q('mtg:bolt'));
    expect(body.data.length).toBeGreaterThan(0);
    for (const item of body.data) expect(item).toMatchObject({ kind: 'card', game: 'mtg' });
    expect(ids((await search(fx.app, q('pokemon: seance'))).body)).toEqual(['pkm-seance']);
    expect(ids((await search(fx.app, q('lorcana:seance'))).body)).toEqual(['lor-seance']);
    expect(ids((await search(fx.app, q('onepiece:luffy'))).body)).toEqual(['op-luffy']);
    expect(ids((await search(fx.app, q('onepiece:seance'))).body)).toEqual([]);
    expect(ids((await search(fx.app, q('MTG:chandra'))).body)).toEqual(['mtg-chandra']);
  });

  it('figures: narrows to figures only', async () => {
    expect(ids((await search(fx.app, q('figures:bolt'))).body)).toEqual(['fig-bolt']);
    expect(ids((await search(fx.app, q('figures:ch'))).body)).toEqual(['fig-chara']);
  });

  it('gives every item of a kind the same keys', async () => {
    const { body } = await search(fx.app, q('gilded') + '&limit=100');
    expect(body.data.length).toBeGreaterThan(5);
    const keys = new Set(body.data.map((d) => Object.keys(d).sort().join(',')));
    expect(keys.size).toBe(1);
    expect(body.data[0]).toHaveProperty('match');
  });

  it('a query of more than 10 words still matches every word (phrase tiers are skipped, not the match)', async () => {
    const full = await search(fx.app, q('Our Market Research Shows That Players Like Really Long Card Names'));
    expect(full.body.data).toEqual([expect.objectContaining({ id: 'mtg-long-name', match: 'exact' })]);
    const typed = await search(fx.app, q('our market research shows that players like really long card na'));
    expect(typed.body.data).toEqual([expect.objectContaining({ id: 'mtg-long-name', match: 'namePrefix' })]);
    const missing = await search(fx.app, q('our market research shows that players like really long card zebras'));
    expect(missing.body.data).toEqual([]);
  });

  it('a query with no word characters left (after a prefix too) is 200 with no data', async () => {
    for (const text of ['***', '"" ()', 'mtg: ***', '-- ^ :']) {
      const { res, body } = await search(fx.app, q(text));
      expect(res.status, text).toBe(200);
      expect(body.data, text).toEqual([]);
      expect(body.page.total, text).toBe(0);
    }
  });
});
