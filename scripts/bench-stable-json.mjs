#!/usr/bin/env node
/**
 * Canonical JSON benchmark: renders the five range documents of N real cards (a catalog generated
 * with the real CLI, the real renderers) and times, per card, in the same process:
 *   - stableJsonShared (what the compile runs: key order by copy, then one native JSON.stringify),
 *   - 5 x fast-json-stable-stringify (the reference the tests compare with: a string builder),
 *   - 5 x JSON.stringify of the same documents already in key order (the native floor),
 * after checking that the first two give the same text; then the set pages of the same catalog:
 * stableJson of pages whose card summaries are marked as built in key order (codec.ts KEYS_IN_ORDER,
 * what the compile writes) against the same pages as plain objects, whose keys stableJson checks
 * (the text checked equal first). Prints the machine and the command.
 *
 *   npx tsc -p tsconfig.json && node scripts/bench-stable-json.mjs [--cards 3000] [--runs 5]
 *
 * Imports from dist/, so build first. Nothing imports this file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { spawnSync } from 'node:child_process';
import stringify from 'fast-json-stable-stringify';
import { machineLine } from './lib/machine.mjs';

const dist = new URL('../dist/', import.meta.url);
const { openSource, loadCatalog, streamPrices } = await import(new URL('compiler/source/index.js', dist));
const { renderCardRanges } = await import(new URL('compiler/render/card.js', dist));
const { createFxLookup } = await import(new URL('compiler/render/fx.js', dist));
const { stableJson, stableJsonShared } = await import(new URL('snapshots/codec.js', dist));
const { renderSetPages } = await import(new URL('compiler/render/set-pages.js', dist));
const { RANGES } = await import(new URL('snapshots/records.js', dist));

const { values: opts } = parseArgs({ options: { cards: { type: 'string', default: '3000' }, runs: { type: 'string', default: '5' } } });
const CARDS = Number(opts.cards);
const RUNS = Number(opts.runs);
if (!Number.isInteger(CARDS) || CARDS < 100) throw new Error('--cards must be an integer >= 100');
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('--runs must be an integer >= 1');

const work = mkdtempSync(join(tmpdir(), 'bench-json-'));
try {
  const catalogDir = join(work, 'catalog');
  const gen = spawnSync(process.execPath, [new URL('../bin/catalog.js', import.meta.url).pathname, 'generate', '--out', catalogDir, '--cards', String(CARDS), '--seed', '7'], { encoding: 'utf8' });
  if (gen.status !== 0) throw new Error(`generate failed: ${gen.stderr}`);

  const source = openSource(catalogDir);
  const catalog = await loadCatalog(source, { maxRejects: 0 });
  const fx = createFxLookup(catalog.fxRates);
  const cards = [];
  for await (const { record } of streamPrices(source, catalog)) {
    if (record.entity !== 'card') continue;
    const card = catalog.cards.get(record.id);
    const set = catalog.setsByKey.get(`${card.game}/${card.setCode}`);
    const docs = renderCardRanges({ card, set, prices: record, fx });
    cards.push(RANGES.map((r) => docs.get(r)));
  }
  await source.close();
  const sorted = cards.map((docs) => docs.map((d) => JSON.parse(stringify(d))));
  for (const docs of cards) {
    const ours = stableJsonShared(docs);
    docs.forEach((d, i) => {
      if (ours[i] !== stringify(d)) throw new Error('stableJsonShared and fast-json-stable-stringify disagree');
    });
  }

  const perCard = (fn) => {
    const t = process.hrtime.bigint();
    for (const docs of cards) fn(docs);
    return Number(process.hrtime.bigint() - t) / 1e3 / cards.length;
  };
  console.log(`${cards.length} priced cards of a ${CARDS}-card catalog, 5 documents each; µs per card (all five):`);
  for (let run = 1; run <= RUNS; run++) {
    const ours = perCard((docs) => stableJsonShared(docs));
    const reference = perCard((docs) => docs.map((d) => stringify(d)));
    let i = 0;
    const floor = (() => {
      const t = process.hrtime.bigint();
      for (const docs of sorted) for (const d of docs) i += JSON.stringify(d).length;
      return Number(process.hrtime.bigint() - t) / 1e3 / sorted.length;
    })();
    console.log(`run ${run}: stableJsonShared ${ours.toFixed(1)}, fast-json-stable-stringify ${reference.toFixed(1)}, JSON.stringify of sorted documents ${floor.toFixed(1)}`);
  }
  // The set pages, as the compile renders them (no prices: the summaries have every key either way).
  const bySet = new Map();
  for (const card of catalog.cards.values()) {
    const key = `${card.game}/${card.setCode}`;
    if (!bySet.has(key)) bySet.set(key, []);
    bySet.get(key).push({ card, summary: null });
  }
  const pages = [...bySet].flatMap(([key, cards]) => renderSetPages(catalog.setsByKey.get(key), cards));
  const plainPages = pages.map((p) => JSON.parse(JSON.stringify(p)));
  pages.forEach((p, i) => {
    if (stableJson(p) !== stableJson(plainPages[i]) || stableJson(p) !== stringify(p)) throw new Error('a marked set page is written differently');
  });
  const items = pages.reduce((n, p) => n + p.data.length, 0);
  const perItem = (list) => {
    const t = process.hrtime.bigint();
    let n = 0;
    for (const p of list) n += stableJson(p).length;
    if (n === 0) throw new Error('no pages');
    return Number(process.hrtime.bigint() - t) / 1e3 / items;
  };
  console.log(`${pages.length} set pages, ${items} card summaries; µs per summary:`);
  for (let run = 1; run <= RUNS; run++) {
    console.log(`run ${run}: stableJson of marked summaries ${perItem(pages).toFixed(3)}, of the same as plain objects ${perItem(plainPages).toFixed(3)}`);
  }
  console.log(machineLine());
  console.log(`command: node scripts/bench-stable-json.mjs --cards ${CARDS} --runs ${RUNS}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
