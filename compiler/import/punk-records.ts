/**
 * `catalog import punk-records <english folder> [--sets <mytcgcollection sets/en.json>]`: the One
 * Piece card lists of buhbbl/punk-records (`packs.json`, `data/<packId>.json`). Set codes are the
 * pack labels lowercased (`op-01`, `st-21`, `op14-eb04`); packs without a label are named after
 * their title (`promotion-card`). Parallels (`OP01-121_p1`) are printings of the card `OP01-121`:
 * they share its number and their oracleId is that base id, so /v1/oracle/OP01-121 lists them all.
 * An id listed in a second pack is the same printing sold in another product: it stays in the
 * first pack read (packs in id order) and is counted as merged, with a note. The official site has
 * no artists and no release dates: artists are null; release dates come from the optional sets
 * file (joined on the pack label, `OP14-EB04` also trying `OP-14`), placeholders (`2030/01/01`)
 * excepted.
 */
import { join } from 'node:path';
import { slugify } from '../../snapshots/ids.js';
import type { SetRecord } from '../../snapshots/records.js';
import type { ImportContext } from './context.js';
import { isObject, jsonFilesOf, readJson, text } from './source-files.js';
import { readSourceDate, type SourceDate } from './source-date.js';
import { tally } from './tally.js';

const PACKS_FILE = 'packs.json';
const DATA_DIR = 'data';

export async function importPunkRecords(path: string, context: ImportContext): Promise<void> {
  const { folder, report } = context;
  const dates = context.setsFile === undefined ? new Map<string, unknown>() : await readSetDates(context);
  const packs = new Map<string, SetRecord>();
  const packsDoc = await readJson(join(path, PACKS_FILE));
  report.file(PACKS_FILE);
  if (!packsDoc.ok || !isObject(packsDoc.value)) {
    report.reject(PACKS_FILE, '(file)', packsDoc.ok ? 'not an object of packs' : packsDoc.reason);
  } else {
    for (const [packId, raw] of Object.entries(packsDoc.value)) {
      report.file(PACKS_FILE).read += 1;
      const p = isObject(raw) ? raw : {};
      const parts = isObject(p.title_parts) ? p.title_parts : {};
      const label = text(parts.label);
      const title = decodeEntities(text(parts.title) ?? text(p.raw_title) ?? '');
      const released = label === null ? { date: null } : packDate(label, dates, folder.asOf);
      if (released.placeholder !== undefined) report.note(PACKS_FILE, packId, `release date ${JSON.stringify(released.placeholder)} kept as null`);
      const set: SetRecord = {
        game: 'onepiece',
        code: label === null ? slugify(title) : label.toLowerCase(),
        name: title,
        releasedAt: released.date,
        series: text(parts.prefix),
        printedTotal: null,
      };
      if (tally(report, PACKS_FILE, packId, folder.putSet(set))) packs.set(packId, set);
    }
  }

  const firstPack = new Map<string, string>();
  for (const file of await jsonFilesOf(join(path, DATA_DIR))) {
    const label = join(DATA_DIR, file.slice(file.lastIndexOf('/') + 1));
    const packId = label.slice(DATA_DIR.length + 1, -'.json'.length);
    const counts = report.file(label);
    const doc = await readJson(file);
    if (!doc.ok || !Array.isArray(doc.value)) {
      report.reject(label, '(file)', doc.ok ? 'not an array of cards' : doc.reason);
      continue;
    }
    const set = packs.get(packId);
    for (const raw of doc.value as unknown[]) {
      counts.read += 1;
      const c = isObject(raw) ? raw : {};
      const id = text(c.id) ?? '(no id)';
      if (set === undefined) {
        report.reject(label, id, `pack ${packId} is not in ${PACKS_FILE}`);
        continue;
      }
      const first = firstPack.get(id);
      if (first !== undefined) {
        counts.merged += 1;
        report.note(label, id, `also listed in pack ${first}: kept there`);
        continue;
      }
      const base = id.replace(/_p\d+$/, '');
      const ok = tally(report, label, id, folder.putCard({
        id,
        game: 'onepiece',
        setCode: set.code,
        name: text(c.name) ?? '',
        number: base,
        rarity: text(c.rarity),
        artist: null,
        oracleId: base,
        imageUrl: text(c.img_full_url),
        releasedAt: set.releasedAt,
      }));
      if (ok) firstPack.set(id, packId);
    }
  }
}

async function readSetDates(context: ImportContext): Promise<Map<string, unknown>> {
  const file = context.setsFile!;
  const label = `sets file ${file}`;
  const doc = await readJson(file);
  const dates = new Map<string, unknown>();
  if (!doc.ok || !Array.isArray(doc.value)) {
    context.report.reject(label, '(file)', doc.ok ? 'not an array of sets' : doc.reason);
    return dates;
  }
  for (const s of doc.value) if (isObject(s) && typeof s.code === 'string') dates.set(s.code.toUpperCase(), s.releaseDate);
  return dates;
}

/** `OP-01` → its date; `OP14-EB04` (a combined pack) → the date of `OP-14` when it has none of its own. */
function packDate(label: string, dates: Map<string, unknown>, asOf: string): SourceDate {
  const upper = label.toUpperCase();
  const combined = /^([A-Z]+)(\d+)-/.exec(upper);
  const raw = dates.get(upper) ?? (combined === null ? undefined : dates.get(`${combined[1]}-${combined[2]}`));
  return readSourceDate(raw, asOf);
}

/** The official site's titles carry HTML entities (`Ace &amp; Newgate`). */
function decodeEntities(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
