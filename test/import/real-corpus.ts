/**
 * The real public datasets (../shared/datasets next to the project; see SOURCES.md there): where
 * they are, the import commands that load all of them into one folder, and counts taken straight
 * from the raw files, independently of the importers.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO } from '../helpers/cli.js';

export const DATASETS = resolve(REPO, '../shared/datasets');
export const HAS_DATASETS = existsSync(join(DATASETS, 'SOURCES.md'));
export const SKIP_MESSAGE = `real-corpus tests skipped: ${DATASETS} is absent (see docs/real-data.md)`;

/** Every import of docs/real-data.md, in order: cards before the price files that refer to them. */
export function corpusImports(out: string, asOf: string): string[][] {
  const d = (p: string) => join(DATASETS, p);
  const common = ['--out', out, '--as-of', asOf];
  return [
    ['import', 'mtgjson', d('mtg/mtgjson-sets'), ...common],
    ['import', 'pokemon-tcg-data', d('pokemon'), ...common],
    ['import', 'lorcanajson', d('lorcana/lorcanajson/allCards.json'), ...common],
    ['import', 'punk-records', d('onepiece/punk-records/english'), '--sets', d('onepiece/mytcgcollection/sets_en.json'), ...common],
    ['import', 'amiibo', d('figures/amiibo/amiibo.json'), ...common],
    ['import', 'pokemon-prices-csv', d('pokemon/prices/tcgplayer_market_snapshots_2025-02.csv'), ...common],
    ['import', 'lorcast', d('lorcana/lorcast-snapshot'), '--price-date', '2025-04-11', ...common],
  ];
}

const json = (path: string): any => JSON.parse(readFileSync(path, 'utf8'));
const jsonFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f));

export interface MtgPrinting { uuid: string; setCode: string; name: string; artist: string | null; oracleId: string | null }

/** MTG printings as the raw files list them: one per card entry, later faces of a card left out. */
export function rawMtgPrintings(): { entries: number; sets: number; printings: MtgPrinting[] } {
  let entries = 0;
  const printings: MtgPrinting[] = [];
  const files = jsonFiles(join(DATASETS, 'mtg/mtgjson-sets'));
  for (const file of files) {
    const data = json(file).data;
    for (const c of data.cards) {
      entries += 1;
      if (c.side !== undefined && c.side !== 'a') continue;
      printings.push({ uuid: c.uuid, setCode: data.code.toLowerCase(), name: c.name, artist: c.artist ?? null, oracleId: c.identifiers?.scryfallOracleId ?? null });
    }
  }
  return { entries, sets: files.length, printings };
}

export function rawPokemon(): { sets: number; cards: { id: string }[] } {
  const cards: { id: string }[] = [];
  for (const file of jsonFiles(join(DATASETS, 'pokemon/cards/en'))) cards.push(...json(file));
  return { sets: json(join(DATASETS, 'pokemon/sets/en.json')).length, cards };
}

export function rawLorcana(): { sets: number; cards: number } {
  const doc = json(join(DATASETS, 'lorcana/lorcanajson/allCards.json'));
  return { sets: Object.keys(doc.sets).length, cards: doc.cards.length };
}

export function rawOnePiece(): { packs: number; printings: number; uniqueIds: number } {
  const ids = new Set<string>();
  let printings = 0;
  for (const file of jsonFiles(join(DATASETS, 'onepiece/punk-records/english/data'))) {
    for (const c of json(file)) {
      printings += 1;
      ids.add(c.id);
    }
  }
  return { packs: Object.keys(json(join(DATASETS, 'onepiece/punk-records/english/packs.json'))).length, printings, uniqueIds: ids.size };
}

export function rawAmiibo(): { figures: number; series: number } {
  const doc = json(join(DATASETS, 'figures/amiibo/amiibo.json'));
  return { figures: Object.keys(doc.amiibos).length, series: Object.keys(doc.amiibo_series).length };
}
