/**
 * The edit between the two compiles of the example catalog (scripts/openapi.mjs, and the tests'
 * compileExampleCatalog): one price line of the source's `prices.ndjson` changes, its last price
 * going up by `EXAMPLE_CATALOG.priceChange.addCents`. Compiled once, the catalog gave an empty
 * `GET /v1/snapshot/changes?since=` example; compiled again after this, the example lists the keys a
 * nightly price update really changes. The edit is the same bytes on every run, so the examples stay
 * deterministic.
 *
 * @example
 *   applyExamplePriceChange('/tmp/catalog-openapi-x/catalog')
 *   // prices.ndjson: {"entity":"card","id":"OP01-001",…,"usdCents":[…,173]} → […,183]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLE_CATALOG } from './examples.js';

export function applyExamplePriceChange(catalogDir: string): void {
  const { entity, id, addCents } = EXAMPLE_CATALOG.priceChange;
  const file = join(catalogDir, 'prices.ndjson');
  const lines = readFileSync(file, 'utf8').split('\n');
  const at = lines.findIndex((line) => {
    if (line.length === 0) return false;
    const record = JSON.parse(line) as { entity: string; id: string };
    return record.entity === entity && record.id === id;
  });
  if (at < 0) throw new Error(`example price change: no ${entity} ${id} in ${file}`);
  const series = JSON.parse(lines[at]) as { usdCents: (number | null)[] };
  let last = series.usdCents.length - 1;
  while (last >= 0 && series.usdCents[last] === null) last--;
  if (last < 0) throw new Error(`example price change: ${entity} ${id} has no price in ${file}`);
  series.usdCents[last] = (series.usdCents[last] as number) + addCents;
  lines[at] = JSON.stringify(series);
  writeFileSync(file, lines.join('\n'));
}
