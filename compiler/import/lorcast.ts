/**
 * `catalog import lorcast <folder> --price-date <YYYY-MM-DD>`: Lorcast API card objects (one JSON
 * array per set file, `set1.json`…) with `prices.usd`. Each card's USD price becomes one observed
 * point, on the day given (the files carry no date of their own). Cards are matched to LorcanaJSON
 * cards already in the folder by set code and collector number (`4a`); promos are numbered
 * `n/P1` there and never match a main-set number. A card without `prices.usd`, or not in the
 * folder, is rejected. `usd_foil` is not read: a card has one price series.
 */
import { basename } from 'node:path';
import { CatalogError } from '../../snapshots/errors.js';
import { isDate } from '../../snapshots/dates.js';
import type { ImportContext } from './context.js';
import { isObject, jsonFilesOf, kindOf, labelFor, readJson, text } from './source-files.js';
import { tally } from './tally.js';
import { usdToCents } from './usd-cents.js';

export async function importLorcast(path: string, context: ImportContext): Promise<void> {
  const { folder, report, priceDate } = context;
  if (priceDate === undefined || !isDate(priceDate)) {
    throw new CatalogError('usage', 'lorcast needs --price-date YYYY-MM-DD: the day the price snapshot was taken');
  }
  const byNumber = new Map<string, string | null>();
  for (const card of folder.cards()) {
    if (card.game !== 'lorcana') continue;
    const key = `${card.setCode}/${card.number}`;
    // Two cards under one key would make the match a guess: remember the key as ambiguous.
    byNumber.set(key, byNumber.has(key) ? null : card.id);
  }
  const isFile = (await kindOf(path)) === 'file';
  for (const file of await jsonFilesOf(path)) {
    const label = labelFor(path, file, isFile);
    const doc = await readJson(file);
    if (!doc.ok || !Array.isArray(doc.value)) {
      report.reject(label, '(file)', doc.ok ? 'not an array of Lorcast cards' : doc.reason);
      continue;
    }
    // sets.json lists sets, not cards: it holds no prices.
    if (basename(file) === 'sets.json') continue;
    const counts = report.file(label);
    for (const raw of doc.value as unknown[]) {
      counts.read += 1;
      const c = isObject(raw) ? raw : {};
      const id = text(c.id) ?? '(no id)';
      const set = isObject(c.set) ? text(c.set.code) : null;
      const number = text(c.collector_number);
      const key = `${(set ?? '').toLowerCase()}/${number ?? ''}`;
      const match = byNumber.get(key);
      if (match === undefined || match === null) {
        report.reject(label, id, match === null ? `set ${set} number ${number} matches several cards` : `no card of set ${set} number ${number} in the folder (import lorcanajson first)`);
        continue;
      }
      const prices = isObject(c.prices) ? c.prices : {};
      const cents = usdToCents(prices.usd);
      if (cents === null) {
        report.reject(label, id, `no USD price (prices.usd is ${JSON.stringify(prices.usd ?? null)})`);
        continue;
      }
      tally(report, label, id, folder.addPricePoint('card', match, priceDate, cents));
    }
  }
}
