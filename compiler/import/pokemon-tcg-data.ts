/**
 * `catalog import pokemon-tcg-data <repo folder>`: the PokemonTCG/pokemon-tcg-data layout,
 * `sets/en.json` (every set) and `cards/en/<setId>.json` (one array of cards per set). Set codes are
 * the set ids (`base1`, `sv3pt5`); cards keep their ids (`base1-4`).
 *
 * Two newer files (`me2pt5`, `mep`) come from another scraper: per-card `Release Date`, images on
 * pokedata.ovh, no artist, and rarities without spaces (`SpecialIllustrationRare`). They are read
 * with the same mapping; the rarity is spaced like every other set's ("Special Illustration Rare").
 * Missing artists and rarities stay null; a set date of `---` is null.
 */
import { join } from 'node:path';
import type { SetRecord } from '../../snapshots/records.js';
import type { ImportContext } from './context.js';
import { isObject, jsonFilesOf, readJson, text } from './source-files.js';
import { readSourceDate } from './source-date.js';
import { tally } from './tally.js';

const SETS_FILE = join('sets', 'en.json');
const CARDS_DIR = join('cards', 'en');

export async function importPokemonTcgData(path: string, context: ImportContext): Promise<void> {
  const { folder, report } = context;
  const sets = new Map<string, SetRecord>();
  const setsDoc = await readJson(join(path, SETS_FILE));
  report.file(SETS_FILE);
  if (!setsDoc.ok || !Array.isArray(setsDoc.value)) {
    report.reject(SETS_FILE, '(file)', setsDoc.ok ? 'not an array of sets' : setsDoc.reason);
  } else {
    for (const raw of setsDoc.value as unknown[]) {
      report.file(SETS_FILE).read += 1;
      const s = isObject(raw) ? raw : {};
      const id = text(s.id) ?? '(no id)';
      const released = readSourceDate(s.releaseDate, folder.asOf);
      if (released.placeholder !== undefined) report.note(SETS_FILE, id, `release date ${JSON.stringify(released.placeholder)} kept as null`);
      const set: SetRecord = {
        game: 'pokemon',
        code: id.toLowerCase(),
        name: text(s.name) ?? '',
        releasedAt: released.date,
        series: text(s.series),
        printedTotal: typeof s.printedTotal === 'number' ? s.printedTotal : null,
      };
      if (tally(report, SETS_FILE, id, folder.putSet(set))) sets.set(set.code, set);
    }
  }

  for (const file of await jsonFilesOf(join(path, CARDS_DIR))) {
    const label = join(CARDS_DIR, file.slice(file.lastIndexOf('/') + 1));
    const setId = label.slice(CARDS_DIR.length + 1, -'.json'.length).toLowerCase();
    report.file(label);
    const doc = await readJson(file);
    if (!doc.ok || !Array.isArray(doc.value)) {
      report.reject(label, '(file)', doc.ok ? 'not an array of cards' : doc.reason);
      continue;
    }
    const set = sets.get(setId);
    for (const raw of doc.value as unknown[]) {
      report.file(label).read += 1;
      const c = isObject(raw) ? raw : {};
      const id = text(c.id) ?? '(no id)';
      if (set === undefined) {
        report.reject(label, id, `set ${setId} is not in ${SETS_FILE}`);
        continue;
      }
      const otherScraper = 'Release Date' in c;
      const rarity = text(c.rarity);
      const images = isObject(c.images) ? c.images : {};
      tally(report, label, id, folder.putCard({
        id,
        game: 'pokemon',
        setCode: set.code,
        name: text(c.name) ?? '',
        number: text(c.number) ?? '',
        rarity: otherScraper && rarity !== null ? spaceWords(rarity) : rarity,
        artist: text(c.artist),
        oracleId: null,
        imageUrl: text(images.large) ?? text(images.small),
        releasedAt: set.releasedAt,
      }));
    }
  }
}

/** "SpecialIllustrationRare" → "Special Illustration Rare"; text that already has spaces is kept. */
export function spaceWords(value: string): string {
  return /\s/.test(value) ? value : value.replace(/([a-z])([A-Z])/g, '$1 $2');
}
