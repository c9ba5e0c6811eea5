/**
 * `catalog import lorcanajson <allCards.json>`: a LorcanaJSON export (`{ metadata, sets: { "1":
 * {...} }, cards: [...] }`). Set codes are the LorcanaJSON set codes lowercased (`1`…`7`, `q1`);
 * card ids are `lorcana-<LorcanaJSON id>` (unique across sets, unlike set + number: promos reuse
 * the numbers of the set they reprint). The number is as printed: `4a` for the Dalmatian Puppy
 * variants, `1/P1` for a promo of promo group P1. Artists are joined with " & " when a card has
 * several; sets announced without cards are imported too.
 */
import { basename } from 'node:path';
import type { SetRecord } from '../../snapshots/records.js';
import type { ImportContext } from './context.js';
import { isObject, readJson, text } from './source-files.js';
import { readSourceDate } from './source-date.js';
import { tally } from './tally.js';

export async function importLorcanaJson(path: string, context: ImportContext): Promise<void> {
  const { folder, report } = context;
  const label = basename(path);
  const counts = report.file(label);
  const doc = await readJson(path);
  const root = doc.ok && isObject(doc.value) ? doc.value : null;
  if (root === null || !isObject(root.sets) || !Array.isArray(root.cards)) {
    report.reject(label, '(file)', doc.ok ? 'not a LorcanaJSON file: no sets object and cards array' : doc.reason);
    return;
  }
  const sets = new Map<string, SetRecord>();
  for (const [setCode, raw] of Object.entries(root.sets)) {
    counts.read += 1;
    const s = isObject(raw) ? raw : {};
    const released = readSourceDate(s.releaseDate ?? s.prereleaseDate, folder.asOf);
    if (released.placeholder !== undefined) report.note(label, `set ${setCode}`, `release date ${JSON.stringify(released.placeholder)} kept as null`);
    const set: SetRecord = {
      game: 'lorcana',
      code: setCode.toLowerCase(),
      name: text(s.name) ?? '',
      releasedAt: released.date,
      series: null,
      printedTotal: null,
    };
    if (tally(report, label, `set ${setCode}`, folder.putSet(set))) sets.set(setCode, set);
  }
  for (const raw of root.cards as unknown[]) {
    counts.read += 1;
    const c = isObject(raw) ? raw : {};
    const sourceId = text(c.id);
    const id = sourceId === null ? '(no id)' : `lorcana-${sourceId}`;
    const set = sets.get(text(c.setCode) ?? '');
    if (set === undefined) {
      report.reject(label, id, `set ${JSON.stringify(c.setCode)} is not in the file's sets`);
      continue;
    }
    const images = isObject(c.images) ? c.images : {};
    const artists = Array.isArray(c.artists) ? c.artists.map(text).filter((a): a is string => a !== null) : [];
    tally(report, label, id, folder.putCard({
      id,
      game: 'lorcana',
      setCode: set.code,
      name: text(c.fullName) ?? text(c.name) ?? '',
      number: lorcanaNumber(c),
      rarity: text(c.rarity),
      artist: artists.length > 0 ? artists.join(' & ') : text(c.artistsText),
      oracleId: null,
      imageUrl: text(images.full) ?? text(images.thumbnail),
      releasedAt: set.releasedAt,
    }));
  }
}

/** The collector number as printed: number, variant letter, and the promo group after a slash. */
export function lorcanaNumber(c: Record<string, unknown>): string {
  const n = text(c.number);
  if (n === null) return '';
  const variant = text(c.variant) ?? '';
  const promo = text(c.promoGrouping);
  return `${n}${variant}${promo === null ? '' : `/${promo}`}`;
}
