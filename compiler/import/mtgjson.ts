/**
 * `catalog import mtgjson <folder|file>`: MTGJSON v5 set files (`{ meta, data: { code, name,
 * releaseDate, cards[], tokens[], ... } }`). Each printing becomes a card with its MTGJSON uuid as
 * id and its Scryfall oracle id as oracleId (so /v1/oracle/<id> lists every printing across sets);
 * the image URL is built from the Scryfall id. Tokens are not cards and are not read. A
 * double-faced, split or adventure card is one physical printing listed once per face: the first
 * face (side "a") becomes the card, under the full name ("Fire // Ice"), and the other faces are
 * counted as merged into it.
 */
import type { SetRecord } from '../../snapshots/records.js';
import type { CardInput } from './catalog-folder.js';
import type { ImportContext } from './context.js';
import { isObject, jsonFilesOf, kindOf, labelFor, readJson, text } from './source-files.js';
import { readSourceDate } from './source-date.js';
import { tally } from './tally.js';

/** Scryfall's CDN layout for a card's front image (SOURCES.md: MTG image urls). */
export function scryfallImageUrl(scryfallId: string): string {
  return `https://cards.scryfall.io/normal/front/${scryfallId[0]}/${scryfallId[1]}/${scryfallId}.jpg`;
}

export async function importMtgjson(path: string, context: ImportContext): Promise<void> {
  const { folder, report } = context;
  const isFile = (await kindOf(path)) === 'file';
  for (const file of await jsonFilesOf(path)) {
    const label = labelFor(path, file, isFile);
    const counts = report.file(label);
    const doc = await readJson(file);
    if (!doc.ok) {
      report.reject(label, '(file)', doc.reason);
      continue;
    }
    const data = isObject(doc.value) ? doc.value.data : undefined;
    if (!isObject(data) || !Array.isArray(data.cards)) {
      report.reject(label, '(file)', 'not an MTGJSON set file: no data.cards array');
      continue;
    }
    counts.read += 1;
    const code = text(data.code)?.toLowerCase() ?? '';
    const released = readSourceDate(data.releaseDate, folder.asOf);
    if (released.placeholder !== undefined) report.note(label, code, `release date ${JSON.stringify(released.placeholder)} kept as null`);
    const set: SetRecord = {
      game: 'mtg',
      code,
      name: text(data.name) ?? '',
      releasedAt: released.date,
      series: text(data.block),
      printedTotal: typeof data.baseSetSize === 'number' ? data.baseSetSize : null,
    };
    const setOk = tally(report, label, `set ${code || '(no code)'}`, folder.putSet(set));

    for (const raw of data.cards as unknown[]) {
      counts.read += 1;
      const c = isObject(raw) ? raw : {};
      const id = text(c.uuid) ?? '(no uuid)';
      if (!setOk) {
        report.reject(label, id, `its set ${code || '(no code)'} was rejected`);
        continue;
      }
      const side = text(c.side);
      if (side !== null && side !== 'a') {
        // Later faces carry the printing's data again; the card is the first face's record.
        counts.merged += 1;
        continue;
      }
      tally(report, label, id, folder.putCard(mtgCard(c, id, set)));
    }
  }
}

function mtgCard(c: Record<string, unknown>, id: string, set: SetRecord): CardInput {
  const identifiers = isObject(c.identifiers) ? c.identifiers : {};
  const scryfallId = text(identifiers.scryfallId);
  // Some promos and The List reprints have their own first release inside a later set.
  const own = typeof c.originalReleaseDate === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(c.originalReleaseDate) ? c.originalReleaseDate : null;
  return {
    id,
    game: 'mtg',
    setCode: set.code,
    name: text(c.name) ?? '',
    number: text(c.number) ?? '',
    rarity: text(c.rarity),
    artist: text(c.artist),
    oracleId: text(identifiers.scryfallOracleId),
    imageUrl: scryfallId !== null && /^[0-9a-f-]{36}$/.test(scryfallId) ? scryfallImageUrl(scryfallId) : null,
    releasedAt: own ?? set.releasedAt,
  };
}
