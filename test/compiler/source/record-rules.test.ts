import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { formatReject, loadCatalog, openSource, type CatalogSource } from '../../../compiler/source/index.js';
import { baseCatalog, card, writeCatalog, type FixtureOverrides, removeTempDirs } from './catalog-fixture.js';

afterAll(removeTempDirs);

const opened: CatalogSource[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function rejectsOf(overrides: FixtureOverrides): Promise<string[]> {
  const source = openSource(writeCatalog(overrides));
  opened.push(source);
  const catalog = await loadCatalog(source, { maxRejects: 50 });
  return catalog.rejects.list().map(formatReject);
}

const base = baseCatalog();
const withCard = (extra: object, id = 'new-1'): FixtureOverrides => ({ cards: [...base.cards, card(id, extra)] });
const withUser = (user: object): FixtureOverrides => ({
  users: [...base.users, { id: 'u9', handle: 'u9', displayName: null, showcase: false, anonymous: false, joinedAt: '2024-01-01', ...user }],
});
const withFigure = (figure: object): FixtureOverrides => ({
  figures: [...base.figures, { ...base.figures[0], id: 'f9', ...figure }],
});

// Each case: a catalog with one broken record, and the exact reject it must produce.
const cases: [string, FixtureOverrides, string][] = [
  ['bad JSON', { cards: [...base.cards, '{"id": "x",'] }, 'cards.ndjson:4: invalid JSON ('],
  ['a line that is not an object', { cards: [...base.cards, '[1,2]'] }, 'cards.ndjson:4: a record must be a JSON object, got an array'],
  ['a JSON string line', { sets: [...base.sets, '"lea"'] }, 'sets.ndjson:3: a record must be a JSON object, got "lea"'],
  ['a missing required field', { cards: [...base.cards, { id: 'x', game: 'mtg', setCode: 'lea' }] }, 'cards.ndjson:4: missing required field "name"'],
  ['a wrong type', withCard({ watchers: '12' }), 'cards.ndjson:4: field "watchers" must be a non-negative integer, got "12"'],
  ['a null in a required field', withCard({ name: null }), 'cards.ndjson:4: field "name" must be a non-empty string, got null'],
  ['a wrong type in a nullable field', withCard({ artist: 7 }), 'cards.ndjson:4: field "artist" must be a string or null, got 7'],
  ['an unknown game', withCard({ game: 'yugioh' }), 'cards.ndjson:4: field "game" must be one of mtg, pokemon, lorcana, onepiece, got "yugioh"'],
  ['a duplicate id', withCard({}, 'mtg-lea-1'), 'cards.ndjson:4: duplicate id mtg-lea-1 (first on line 2)'],
  ['an id not matching the id pattern', withCard({}, 'has space'), 'cards.ndjson:4: field "id" must be an id matching'],
  ['the id ".."', withCard({}, '..'), 'cards.ndjson:4: field "id" must be an id matching'],
  ['an uppercase set code', withCard({ setCode: 'LEA' }), 'cards.ndjson:4: field "setCode" must be a lowercase slug matching'],
  ['a handle that is not a slug', withUser({ handle: 'Bob Smith' }), 'users.ndjson:3: field "handle" must be a lowercase slug matching ^[a-z0-9][a-z0-9-]{0,63}$ or null, got "Bob Smith"'],
  ['an invalid date', withCard({ releasedAt: '2023-02-29' }), 'cards.ndjson:4: field "releasedAt" must be a date YYYY-MM-DD or null, got "2023-02-29"'],
  ['an instant where a date is due', withCard({ addedAt: '2023-02-01T00:00:00.000Z' }), 'cards.ndjson:4: field "addedAt" must be a date YYYY-MM-DD'],
  ['an invalid instant', { activity: [{ ...base.activity[0], at: '2026-11-02 08:00' }] }, 'activity.ndjson:1: field "at" must be a date YYYY-MM-DD or an instant YYYY-MM-DDTHH:MM:SS.mmmZ, got "2026-11-02 08:00"'],
  ['a negative count', { sets: [...base.sets, { ...base.sets[0], code: 'leb', printedTotal: -5 }] }, 'sets.ndjson:3: field "printedTotal" must be a non-negative integer or null, got -5'],
  ['a non-integer count', withCard({ watchers: 1.5 }), 'cards.ndjson:4: field "watchers" must be a non-negative integer, got 1.5'],
  ['a reference to an unknown set', withCard({ setCode: 'zzz' }), 'cards.ndjson:4: refers to unknown set mtg/zzz'],
  ['a card of a set of another game', withCard({ setCode: 'base1' }), 'cards.ndjson:4: refers to unknown set mtg/base1'],
  ['a reference to an unknown series', withFigure({ seriesId: 's404' }), 'figures.ndjson:3: refers to unknown figure series s404'],
  ['a figure rarity outside FIGURE_RARITIES', withFigure({ rarity: 'mythic' }), 'figures.ndjson:3: field "rarity" must be one of common, uncommon, rare, ultra, secret or null, got "mythic"'],
  ['a currency outside CURRENCIES', { fxRates: [...base.fxRates, { date: '2026-11-20', currency: 'JPY', perUsd: 150, source: 'ECB' }] }, 'fx-rates.ndjson:4: field "currency" must be one of EUR, GBP, CAD, AUD, got "JPY"'],
  ['a zero FX rate', { fxRates: [...base.fxRates, { date: '2026-11-20', currency: 'EUR', perUsd: 0, source: 'ECB' }] }, 'fx-rates.ndjson:4: field "perUsd" must be a positive number, got 0'],
  ['a duplicate FX rate', { fxRates: [...base.fxRates, { date: '2026-11-19', currency: 'EUR', perUsd: 0.93, source: 'ECB' }] }, 'fx-rates.ndjson:4: duplicate EUR rate for 2026-11-19 (first on line 3)'],
  ['a duplicate set', { sets: [...base.sets, base.sets[1]] }, 'sets.ndjson:3: duplicate set pokemon/base1 (first on line 2)'],
  ['an anonymous user in the showcase', withUser({ anonymous: true, showcase: true, handle: null }), 'users.ndjson:3: an anonymous user must have showcase false'],
  ['an anonymous user with a handle', withUser({ anonymous: true }), 'users.ndjson:3: an anonymous user must have handle null'],
  ['a showcase user without a handle', withUser({ showcase: true, handle: null }), 'users.ndjson:3: a showcase user needs a handle'],
  ['a duplicate handle', withUser({ handle: 'alice' }), 'users.ndjson:3: handle "alice" is already used by user u1 (line 1)'],
  ['a binder of an unknown user', { binders: [{ ...base.binders[0], userId: 'ghost' }] }, 'binders.ndjson:1: refers to unknown user ghost'],
  ['a binder item of an unknown card', { binders: [{ ...base.binders[0], items: [{ entity: 'card', id: 'nope' }] }] }, 'binders.ndjson:1: items[0] refers to unknown card nope'],
  ['a malformed binder item', { binders: [{ ...base.binders[0], items: [{ entity: 'sticker', id: 'x' }] }] }, 'binders.ndjson:1: field "items" must be an array of { "entity": "card" | "figure", "id": <id> }: items[0].entity is "sticker"'],
  ['activity on an unknown figure', { activity: [{ ...base.activity[0], entityId: 'f404' }] }, 'activity.ndjson:1: refers to unknown figure f404'],
  ['activity of an unknown user', { activity: [{ ...base.activity[0], userId: 'ghost' }] }, 'activity.ndjson:1: refers to unknown user ghost'],
  ['an unknown activity type', { activity: [{ ...base.activity[0], type: 'like' }] }, 'activity.ndjson:1: field "type" must be one of binder_add, wishlist_add, pull, price_alert, got "like"'],
  ['pulls of an unknown figure', { pullObservations: [{ ...base.pullObservations[0], pulls: { f404: 1 } }] }, 'pull-observations.ndjson:1: pulls refers to unknown figure f404'],
  ['pulls of a figure of another series', {
    figureSeries: [...base.figureSeries, { id: 's2', name: 'Two', manufacturer: null, releasedAt: '2025-01-01' }],
    figures: [...base.figures, { ...base.figures[0], id: 'f3', seriesId: 's2' }],
    pullObservations: [{ ...base.pullObservations[0], pulls: { f1: 1, f3: 1 } }],
  }, 'pull-observations.ndjson:1: pulls name figure f3 of series s2, not of s1'],
  ['more pulls than boxes', { pullObservations: [{ ...base.pullObservations[0], boxes: 2 }] }, 'pull-observations.ndjson:1: pulls add up to 4, more than the 2 boxes opened'],
  ['a non-http image URL', withCard({ imageUrl: 'javascript:alert(1)' }), 'cards.ndjson:4: field "imageUrl" must be an absolute http(s) URL or null, got "javascript:alert(1)"'],
];

describe('record rules: each broken record is rejected with its file, line and reason', () => {
  it.each(cases)('%s', async (_label, overrides, expected) => {
    const rejects = await rejectsOf(overrides);
    expect(rejects.some((r) => r.startsWith(expected)), `${expected}\n  not in:\n${rejects.join('\n')}`).toBe(true);
  });

  it('when a line is not valid UTF-8 then it is rejected as such, not read with replacement characters', async () => {
    const dir = writeCatalog();
    const good = base.cards.map((c) => JSON.stringify(c)).join('\n');
    fs.writeFileSync(path.join(dir, 'cards.ndjson'), Buffer.concat([Buffer.from(`${good}\n{"id":"caf`), Buffer.from([0xe9]), Buffer.from('"}\n')]));
    const source = openSource(dir);
    opened.push(source);
    const catalog = await loadCatalog(source, { maxRejects: 5 });
    expect(catalog.rejects.list().map(formatReject)).toEqual(['cards.ndjson:4: line is not valid UTF-8']);
  });

  it('when a record is rejected then nothing of it is kept', async () => {
    const source = openSource(writeCatalog(withCard({ watchers: -1 }, 'neg')));
    opened.push(source);
    const catalog = await loadCatalog(source, { maxRejects: 5 });
    expect(catalog.cards.has('neg')).toBe(false);
    expect(catalog.cards.size).toBe(3);
  });
});
