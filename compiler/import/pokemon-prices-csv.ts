/**
 * `catalog import pokemon-prices-csv <file.csv>`: the TCGplayer market snapshots CSV (columns
 * snapshot_commit, snapshot_date, card_id, name, number, tcgplayer_market_usd, ...). Each row is
 * one observed price of a pokemon-tcg-data card on the snapshot's day (the day as written in
 * snapshot_date). Rows are applied oldest snapshot first, so when two snapshots fall on one day the
 * later one's price is kept (the row counts as merged). A row whose card is not in the folder, or
 * that has no card_id or no market price, is rejected: import the cards first.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ImportContext } from './context.js';
import { parseCsv } from './csv.js';
import { readSourceDate } from './source-date.js';
import { tally } from './tally.js';
import { usdToCents } from './usd-cents.js';

const REQUIRED = ['snapshot_date', 'card_id', 'tcgplayer_market_usd'];

export async function importPokemonPricesCsv(path: string, context: ImportContext): Promise<void> {
  const { folder, report } = context;
  const label = basename(path);
  const counts = report.file(label);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    report.reject(label, '(file)', `cannot read the file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    return;
  }
  const rows = parseCsv(text);
  const missing = rows.length === 0 ? REQUIRED : REQUIRED.filter((c) => !(c in rows[0].values));
  if (missing.length > 0) {
    report.reject(label, '(file)', `not the TCGplayer snapshots CSV: no column ${missing.join(', ')}`);
    return;
  }
  // Oldest snapshot first; the line breaks ties so the order never depends on the sort's stability.
  const ordered = rows
    .map((row) => ({ row, at: Date.parse(row.values.snapshot_date) }))
    .sort((a, b) => (a.at || 0) - (b.at || 0) || a.row.line - b.row.line);
  for (const { row } of ordered) {
    counts.read += 1;
    const v = row.values;
    const id = v.card_id.trim() === '' ? `line ${row.line}` : v.card_id.trim();
    if (v.card_id.trim() === '') {
      report.reject(label, id, `no card_id (${v.name || 'unnamed'} ${v.number}, set ${v.set_code_field || v.set_name || '?'})`);
      continue;
    }
    const card = folder.card(id);
    if (card === undefined || card.game !== 'pokemon') {
      report.reject(label, id, `card ${id} is not in the folder (import pokemon-tcg-data first)`);
      continue;
    }
    const day = readSourceDate(v.snapshot_date, folder.asOf).date;
    if (day === null) {
      report.reject(label, id, `snapshot_date ${JSON.stringify(v.snapshot_date)} is not a date`);
      continue;
    }
    const cents = usdToCents(v.tcgplayer_market_usd);
    if (cents === null) {
      report.reject(label, id, `tcgplayer_market_usd ${JSON.stringify(v.tcgplayer_market_usd)} is not a USD amount`);
      continue;
    }
    tally(report, label, id, folder.addPricePoint('card', id, day, cents));
  }
}
