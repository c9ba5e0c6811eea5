/**
 * Streams `prices.ndjson` after loadCatalog: price histories are the bulk of a catalog, so they
 * are never held in memory; each valid line is handed out once, with its raw text (the compiler
 * fingerprints it for incremental compiles). Bad lines go to the catalog's RejectLog, which fails
 * the stream as soon as there are more than `maxRejects`.
 *
 * @example
 *   for await (const { record, text } of streamPrices(source, catalog)) render(record, hash(text));
 *   const warnings = catalog.rejects.finish();
 */
import type { PriceSeriesRecord } from '../../snapshots/records.js';
import type { CatalogSource } from './catalog-source.js';
import { addDays } from '../../snapshots/dates.js';
import { fileOf } from './files.js';
import { PROGRESS_EVERY, type LoadedCatalog } from './load.js';
import { createRefIndex, refKey } from './refs.js';
import { parseRecord } from './validate.js';

export interface PriceLine {
  record: PriceSeriesRecord;
  /** The line exactly as read (without its newline). */
  text: string;
}

export interface StreamPricesOptions {
  onProgress?: (kind: 'prices', lines: number) => void;
}

export async function* streamPrices(
  source: CatalogSource,
  catalog: LoadedCatalog,
  options: StreamPricesOptions = {},
): AsyncGenerator<PriceLine> {
  const file = fileOf('prices');
  const refs = createRefIndex(catalog.rejected);
  const seen = new Map<string, number>();
  const { asOf } = catalog.meta;
  let count = 0;

  const reasonFor = (record: PriceSeriesRecord, lineNo: number): string | null => {
    const key = refKey.entity(record.entity, record.id);
    const known = record.entity === 'card' ? catalog.cards.has(record.id) : catalog.figures.has(record.id);
    const unknown = refs.problem(`${record.entity} ${record.id}`, key, known);
    if (unknown !== null) return unknown;
    const first = seen.get(key);
    if (first !== undefined) return `duplicate price series for ${record.entity} ${record.id} (first on line ${first})`;
    seen.set(key, lineNo);
    const end = addDays(record.start, record.usdCents.length - 1);
    if (record.usdCents.length > 0 && end > asOf) {
      return `the series runs to ${end}, after asOf ${asOf} in meta.json`;
    }
    return null;
  };

  for await (const line of source.lines('prices')) {
    count += 1;
    if (count % PROGRESS_EVERY === 0) options.onProgress?.('prices', count);
    let reason = line.problem ?? null;
    if (reason === null) {
      const parsed = parseRecord<PriceSeriesRecord>('prices', line.text);
      if (parsed.ok) reason = reasonFor(parsed.record, line.lineNo);
      else reason = parsed.reason;
      if (reason === null && parsed.ok) {
        yield { record: parsed.record, text: line.text };
        continue;
      }
    }
    catalog.rejects.add(file, line.lineNo, reason!);
    catalog.rejects.check();
  }
  options.onProgress?.('prices', count);
}
