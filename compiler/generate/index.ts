/**
 * `generateCatalog`: writes a deterministic synthetic catalog (docs/generate.md) in the canonical
 * source format. Same options, same bytes: every value comes from named seeded streams (prng.ts),
 * never from the clock or Math.random. Memory stays bounded at any size: the plan (plan.ts) is about
 * one entry per 200 cards, and everything else is made one record at a time and written with
 * backpressure (write.ts).
 *
 * @example
 *   const summary = await generateCatalog({ out: 'data/catalog', cards: 5000, seed: 1, asOf: '2026-11-20' });
 *   formatSummary(summary) // 'generated 5000 cards in 27 sets, ... in 1.2s -> data/catalog'
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CatalogError, isCatalogError } from '../../snapshots/errors.js';
import { META_FILE, SOURCE_FILES, type CatalogMeta, type SourceKind } from '../../snapshots/records.js';
import { writeActivity } from './activity.js';
import { writeBinders } from './binders.js';
import { writeCards } from './cards.js';
import { writeFigures } from './figures.js';
import { writeFxRates } from './fx.js';
import { checkGenerateOptions, type GenerateOptions } from './options.js';
import { prepareOutDir } from './out-dir.js';
import { planCatalog } from './plan.js';
import { writePullObservations } from './pulls.js';
import { writeUsers } from './users.js';
import { openNdjson, type NdjsonWriter } from './write.js';

export { DEFAULT_AS_OF, DEFAULT_CARDS, DEFAULT_SEED, MAX_CARDS, type GenerateOptions } from './options.js';

export interface GenerateSummary {
  out: string;
  seed: number;
  asOf: string;
  cards: number;
  sets: number;
  figures: number;
  figureSeries: number;
  priceSeries: number;
  fxRates: number;
  users: number;
  binders: number;
  activity: number;
  pullObservations: number;
  artists: number;
  durationMs: number;
}

export async function generateCatalog(options: GenerateOptions): Promise<GenerateSummary> {
  checkGenerateOptions(options);
  const { out, cards, seed, asOf } = options;
  const started = performance.now();
  await prepareOutDir(out, options.force === true);
  const plan = planCatalog({ cards, seed, asOf });

  const total = plan.cards + plan.figures;
  let done = 0;
  const advance = (units: number) => {
    done += units;
    options.onProgress?.(done, total);
  };

  const writers = {} as Record<SourceKind, NdjsonWriter>;
  for (const kind of Object.keys(SOURCE_FILES) as SourceKind[]) writers[kind] = openNdjson(join(out, SOURCE_FILES[kind]));
  try {
    for (const set of plan.sets) await writers.sets.write(set.record);
    const cardsOutcome = await writeCards(plan, { cards: writers.cards, prices: writers.prices }, advance);
    const figuresOutcome = await writeFigures(
      plan,
      { figureSeries: writers.figureSeries, figures: writers.figures, prices: writers.prices },
      advance,
    );
    const pullObservations = await writePullObservations(plan, writers.pullObservations);
    const fxRates = await writeFxRates(plan, writers.fxRates);
    const users = await writeUsers(plan, writers.users);
    const binders = await writeBinders(plan, writers.binders);
    const activity = await writeActivity(plan, writers.activity);
    for (const writer of Object.values(writers)) await writer.close();
    // Last, so a folder with meta.json is a complete catalog.
    const meta: CatalogMeta = { formatVersion: 1, asOf };
    await writeFile(join(out, META_FILE), `${JSON.stringify(meta)}\n`);
    return {
      out,
      seed,
      asOf,
      cards: cardsOutcome.cards,
      sets: plan.sets.length,
      figures: figuresOutcome.figures,
      figureSeries: figuresOutcome.figureSeries,
      priceSeries: cardsOutcome.priceSeries + figuresOutcome.priceSeries,
      fxRates,
      users,
      binders,
      activity,
      pullObservations,
      artists: plan.artists,
      durationMs: performance.now() - started,
    };
  } catch (err) {
    for (const writer of Object.values(writers)) writer.destroy();
    if (isCatalogError(err)) throw err;
    throw new CatalogError('io', `generating into ${out} failed: ${(err as Error).message}`, { path: out }, { cause: err });
  }
}

/** The one-line summary the CLI prints. */
export function formatSummary(s: GenerateSummary): string {
  const n = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
  return (
    `generated ${n(s.cards, 'card')} in ${n(s.sets, 'set')}, ${n(s.figures, 'figure')} in ${s.figureSeries} series, ` +
    `${s.priceSeries} price series, ${n(s.fxRates, 'fx rate')}, ${n(s.users, 'user')}, ${n(s.binders, 'binder')}, ` +
    `${n(s.activity, 'activity event')}, ${n(s.pullObservations, 'pull observation')} in ${(s.durationMs / 1000).toFixed(1)}s -> ${s.out}`
  );
}
