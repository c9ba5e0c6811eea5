// The benchmarks' incremental change: the last price of every 100th price line of a generated
// catalog (1% of priced entities), rewritten in place (bench-compile.mjs, bench-publish.mjs).
import { createReadStream, createWriteStream, renameSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';

/** Changes the last price of every 100th price line of `dir/prices.ndjson`; returns how many changed. */
export async function touchOnePercent(dir) {
  const src = join(dir, 'prices.ndjson');
  const tmp = join(dir, 'prices.ndjson.tmp');
  const out = createWriteStream(tmp);
  let n = 0;
  let changed = 0;
  for await (const line of createInterface({ input: createReadStream(src), crlfDelay: Infinity })) {
    let text = line;
    if (line && n++ % 100 === 0) {
      const rec = JSON.parse(line);
      const last = rec.usdCents.length - 1;
      rec.usdCents[last] = (rec.usdCents[last] ?? 100) + 7;
      text = JSON.stringify(rec);
      changed++;
    }
    if (!out.write(text + '\n')) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((r) => out.end(r));
  renameSync(tmp, src);
  return changed;
}
