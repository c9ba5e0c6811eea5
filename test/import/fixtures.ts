/**
 * Tiny hand-made source files in each public format, shaped like the real ones (fields trimmed to
 * what the importers read), each with one of the messy cases real data has.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function writeJson(path: string, value: unknown): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
  return path;
}

const face = (side: 'a' | 'b', faceName: string, uuid: string) => ({
  uuid, name: 'Fire // Ice', faceName, side, number: '128', rarity: 'uncommon', artist: 'Franz Vohwinkel',
  identifiers: { scryfallId: 'a5b9b1a2-0000-4000-8000-000000000128', scryfallOracleId: 'ca7e0f4c-0000-4000-8000-00000000f1ce' },
});

/** One MTGJSON set: a "★12" number, a card without artist or oracle id, a split card, a token. */
export function mtgSetFile(dir: string): string {
  return writeJson(join(dir, 'TST.json'), {
    meta: { date: '2022-04-25', version: '5.2.0' },
    data: {
      code: 'TST', name: 'Test Set', releaseDate: '2020-01-10', block: 'Test Block', baseSetSize: 2, type: 'expansion',
      cards: [
        { uuid: '11111111-1111-5111-8111-111111111111', name: 'Serra Angel', number: '★12', rarity: 'uncommon', artist: 'Douglas Shuler',
          identifiers: { scryfallId: 'f8ac5006-91bd-4803-93da-f87cf196dd2f', scryfallOracleId: '4b7ac066-e5c7-43e6-9e7e-2739b24a905d' } },
        { uuid: '22222222-2222-5222-8222-222222222222', name: 'Dandân', number: '123a', rarity: 'common',
          identifiers: { scryfallId: '0b3dc354-0000-4000-8000-000000000000' } },
        face('a', 'Fire', '33333333-3333-5333-8333-333333333333'),
        face('b', 'Ice', '44444444-4444-5444-8444-444444444444'),
      ],
      tokens: [{ uuid: '55555555-5555-5555-8555-555555555555', name: 'Soldier', number: 'T1', identifiers: {} }],
    },
  });
}

/** A pokemon-tcg-data layout: a set with a `---` date, a card without artist, a file of the other scraper. */
export function pokemonRepo(dir: string): string {
  writeJson(join(dir, 'sets', 'en.json'), [
    { id: 'base1', name: 'Base', series: 'Base', printedTotal: 102, releaseDate: '1999/01/09' },
    { id: 'me2pt5', name: 'Ascended Heroes', series: 'Mega Evolution', printedTotal: 131, releaseDate: '2026/01/30' },
    { id: 'mep', name: 'Mega Evolution Promos', series: 'Mega Evolution', releaseDate: '---' },
  ]);
  writeJson(join(dir, 'cards', 'en', 'base1.json'), [
    { id: 'base1-4', name: 'Charizard', number: '4', artist: 'Mitsuhiro Arita', rarity: 'Rare Holo',
      images: { small: 'https://images.pokemontcg.io/base1/4.png', large: 'https://images.pokemontcg.io/base1/4_hires.png' } },
    { id: 'base1-5', name: 'Clefairy', number: '5', rarity: 'Rare Holo', images: { small: 'https://images.pokemontcg.io/base1/5.png' } },
  ]);
  writeJson(join(dir, 'cards', 'en', 'me2pt5.json'), [
    { id: 'me2pt5-1', name: "Erika's Oddish", number: '1', rarity: 'SpecialIllustrationRare', 'Release Date': '2026-01-29T17:00:00.0000000Z',
      Craftable: 1, baseEvolution: "Erika's Oddish", images: { small: 'https://images.pokedata.ovh/en/me2-5/1.webp' } },
  ]);
  writeJson(join(dir, 'cards', 'en', 'mep.json'), [{ id: 'mep-1', name: 'Mega Promo', number: '1' }]);
  return dir;
}

/** punk-records english/: a parallel, the same id in two packs, and a sets file with a placeholder date. */
export function punkRecords(dir: string): { english: string; sets: string } {
  const english = join(dir, 'english');
  writeJson(join(english, 'packs.json'), {
    569101: { id: '569101', raw_title: 'BOOSTER PACK -ROMANCE DAWN- [OP-01]', title_parts: { label: 'OP-01', prefix: 'BOOSTER PACK', title: 'ROMANCE DAWN' } },
    569801: { id: '569801', raw_title: 'Other Product Card', title_parts: { label: null, prefix: null, title: 'Other Product Card' } },
    569901: { id: '569901', raw_title: 'Promotion card', title_parts: { label: null, prefix: null, title: 'Promotion card' } },
  });
  const card = (id: string, pack: string) => ({ id, name: 'Yamato', rarity: 'SecretRare', pack_id: pack, img_full_url: `https://en.onepiece-cardgame.com/images/cardlist/card/${id}.png` });
  writeJson(join(english, 'data', '569101.json'), [card('OP01-121', '569101'), card('OP01-121_p1', '569101')]);
  writeJson(join(english, 'data', '569801.json'), [card('OP07-091_p1', '569801')]);
  writeJson(join(english, 'data', '569901.json'), [card('OP07-091_p1', '569901')]);
  const sets = writeJson(join(dir, 'sets_en.json'), [
    { id: 'op01', code: 'OP-01', name: 'Romance Dawn', releaseDate: '2022/12/02' },
    { id: 'promos', code: 'PROMOS', name: 'Promos', releaseDate: '2030/01/01' },
  ]);
  return { english, sets };
}

export function amiiboFile(dir: string): string {
  return writeJson(join(dir, 'amiibo.json'), {
    amiibos: {
      '0x0000000000000002': { name: 'Mario', release: { au: '2014-11-29', eu: '2014-11-28', jp: '2014-12-06', na: '2014-11-21' } },
      '0x1f400000035e1002': { name: 'Qbby', release: { au: null, eu: null, jp: '2017-02-02', na: null } },
    },
    amiibo_series: { '0x00': 'Super Smash Bros.', '0x10': 'BoxBoy!' },
    characters: { '0x0000': 'Mario', '0x1f40': 'Qbby' },
    game_series: { '0x000': 'Super Mario', '0x1f4': 'BoxBoy!' },
    types: { '0x00': 'Figure', '0x01': 'Card' },
  });
}
