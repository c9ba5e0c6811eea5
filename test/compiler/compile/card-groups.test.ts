/**
 * compile/card-groups.ts: the groups are the orders the set and artist pages use, they come back
 * from their file equal, and a file made for other catalog files, other code, another catalog size
 * or with damaged bytes is never taken.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../../helpers/cli.js';
import { loadCatalog, openSource, type LoadedCatalog } from '../../../compiler/source/index.js';
import { cardColumns } from '../../../compiler/source/card-table.js';
import { cardGroups, keepCardGroups, readCardGroups, type CardGroups } from '../../../compiler/compile/card-groups.js';
import { groupArtists, orderArtistCards } from '../../../compiler/render/artist-pages.js';
import { orderSetCards } from '../../../compiler/render/set-pages.js';
import { setMapKey } from '../../../compiler/render/summaries.js';
import type { CardRecord } from '../../../snapshots/records.js';

let loaded: LoadedCatalog;
let groups: CardGroups;
const expect1 = { files: 'files-hash-1', code: 'code-1' };

beforeAll(async () => {
  const dir = join(tempDir(), 'catalog');
  const r = await runCli(['generate', '--out', dir, '--cards', '400', '--seed', '5']);
  expect(r.code, r.stderr).toBe(0);
  const source = openSource(dir);
  try {
    loaded = await loadCatalog(source, { maxRejects: 0 });
  } finally {
    await source.close();
  }
  groups = cardGroups(cardColumns(loaded.cards), loaded.sets);
});

/** The cards as the page renderers take them (the order reads no price). */
const priced = (cards: readonly CardRecord[]) => cards.map((card) => ({ card, summary: null }));
const plain = (g: CardGroups) => ({ sets: [...g.sets], artists: [...g.artists], oracles: [...g.oracles] });

describe('card groups', () => {
  it('when made from a catalog then each set and artist lists its cards in its pages\' order and each oracle concept its printings', () => {
    const records = [...loaded.cards.values()];
    const ids = (positions: readonly number[]) => positions.map((i) => records[i].id);
    let setsWithCards = 0;
    for (const set of loaded.sets) {
      const cards = records.filter((c) => c.game === set.game && c.setCode === set.code);
      if (cards.length === 0) continue;
      setsWithCards++;
      expect(ids(groups.sets.get(setMapKey(set.game, set.code))!)).toEqual(orderSetCards(set, priced(cards)).cards.map((p) => p.card.id));
    }
    expect(groups.sets.size).toBe(setsWithCards);
    const artists = groupArtists(records);
    expect([...groups.artists.keys()]).toEqual([...artists.keys()]);
    for (const [slug, group] of artists) {
      expect(groups.artists.get(slug)!.name).toBe(group.name);
      expect(ids(groups.artists.get(slug)!.cards)).toEqual(orderArtistCards(priced(group.cards)).cards.map((p) => p.card.id));
    }
    const printings = records.filter((c) => c.oracleId !== null);
    expect(printings.length).toBeGreaterThan(0);
    expect([...groups.oracles.values()].flat().length).toBe(printings.length);
    for (const [oracleId, positions] of groups.oracles) expect(positions.every((i) => records[i].oracleId === oracleId)).toBe(true);
  });

  it('when written and read for the same files and code then the groups come back equal, in the same order', () => {
    const path = join(tempDir(), 'card-groups.state');
    keepCardGroups(path, groups, expect1, null);
    const back = readCardGroups(path, expect1, loaded.cards.size);
    expect(back).not.toBeNull();
    expect(plain(back!)).toEqual(plain(groups));
  });

  it('when taken from a previous file then the new one is that file linked, not written again', () => {
    const from = join(tempDir(), 'card-groups.state');
    keepCardGroups(from, groups, expect1, null);
    const to = join(tempDir(), 'card-groups.state');
    keepCardGroups(to, groups, expect1, from);
    expect(statSync(to).ino).toBe(statSync(from).ino);
  });

  it('when the file was made for other catalog files, other code or more cards, is damaged or missing then it is not taken', () => {
    const path = join(tempDir(), 'card-groups.state');
    keepCardGroups(path, groups, expect1, null);
    expect(readCardGroups(path, { ...expect1, files: 'files-hash-2' }, loaded.cards.size)).toBeNull();
    expect(readCardGroups(path, { ...expect1, code: 'code-2' }, loaded.cards.size)).toBeNull();
    // A catalog with fewer cards than a position names.
    expect(readCardGroups(path, expect1, 10)).toBeNull();
    expect(readCardGroups(join(tempDir(), 'none.state'), expect1, loaded.cards.size)).toBeNull();
    const bytes = readFileSync(path);
    bytes[bytes.length - 5] ^= 0xff;
    writeFileSync(path, bytes);
    expect(readCardGroups(path, expect1, loaded.cards.size)).toBeNull();
  });
});
