/**
 * The compile's `cards and figures` phase: the price file is streamed once, and each card and figure
 * is either re-used from the previous snapshot (same input fingerprint) or rendered on the render
 * threads while its price series is at hand, keeping only a small price summary per entity. A price
 * line byte-identical to one the previous snapshot stored (price-line-store.ts) is not parsed: its
 * summary, range and the facts its checks need are taken from the store, and it is parsed only when
 * its entity is rendered again.
 */
import { join } from 'node:path';
import { CURRENCIES, type CardRecord, type FigureRecord, type FxRateRecord, type PriceSeriesRecord } from '../../snapshots/records.js';
import { figureKey } from '../../snapshots/keys.js';
import { fingerprint, stableJson } from '../../snapshots/codec.js';
import { hashedLineBytes, type LineBatchReader } from '../source/hashed-lines.js';
import { parseKnownLine, streamPrices, type CatalogSource, type LoadedCatalog, type PricedEntities, type PriceLine } from '../source/index.js';
import { createFxLookup } from '../render/fx.js';
import type { FxLookup, LatestPrice, PriceSummary } from '../render/types.js';
import { createSparklinePoints } from '../render/discover-sparklines.js';
import type { PriceRange } from '../render/summary.js';
import type { ThreadMode } from '../threads/thread.js';
import { cardKeys, objectBytes, type EntityJob } from './entity-jobs.js';
import { entityToken, type ObjectTable } from './object-table.js';
import type { PackOutput } from './pack-output.js';
import { createEntityPool, type EntityPool } from './pool.js';
import type { ProgressSink } from './progress.js';
import {
  appendToPriceLineFile, createPriceLineFile, mergePriceRange, NO_STORED_PRICE_LINES, openPriceLines, PRICE_LINES_FILE, priceLineFacts, priceLinesVersion, scanPriceLines,
  type KnownPriceLine, type ScannedPriceLines,
} from './price-line-store.js';
import { emptyLineFields, factsOfDecoded, recentDailyOf, tokenOf } from './price-line-codec.js';
import { createPriceTable, type PriceTable } from './price-table.js';
import { bytesAre, cardColumns } from '../source/card-table.js';

export interface PriceSummaries {
  /** Each priced entity's summary but its recent days (LatestPrice in render/types.ts). */
  cards: PriceTable;
  figures: PriceTable;
  /** The recent days of the entities the sparklines feed shows (createSparklinePoints). */
  sparklinePoints: Map<string, readonly (number | null)[]>;
  /** First and last priced day over all series (catalog summary). */
  range: PriceRange;
  /**
   * The entities rendered again (their input changed), and whether each of them is in the previous
   * snapshot with the same record part of its input (so only its price line or FX quotes changed):
   * the search index is then updated in place instead of rebuilt (search-phase.ts).
   */
  rendered: { card: string[]; figure: string[]; onlyPrices: boolean };
  /** How many price lines were accepted (stored in the new object index file for the next compile as they were read). */
  priceLines: number;
  /** How many price lines were taken from the previous snapshot's store instead of parsed. */
  priceLinesReused: number;
}

/**
 * An entity's input fingerprint is two parts joined by a dot: its record (with its set or series
 * and the renderer code), then its raw price line and FX quotes. Equality of the whole decides
 * re-use; the first part tells a price change from a record change.
 */
export function entityInput(record: string, prices: string): string {
  return `${record}.${prices}`;
}

function recordPartOf(input: string | null | undefined): string | null {
  if (typeof input !== 'string') return null;
  const dot = input.indexOf('.');
  return dot < 0 ? null : input.slice(0, dot);
}

const BATCH = 64;
/** Objects per card (one per price range), as cardKeys gives them. */
const CARD_OBJECTS = cardKeys('').length;
/** Entities whose previous inputs are looked up together (object-table.ts `previousInputs`). */
const PENDING = 64;

export interface EntityPhase {
  out: PackOutput;
  table: ObjectTable;
  /** The previous snapshot's folder (its PRICE_LINES_FILE holds the stored price lines), or null. */
  previousDir: string | null;
  /**
   * Those stored lines scanned already (read-ahead.ts, while the catalog was read) for this code's
   * priceLinesVersion; without it they are scanned here.
   */
  scannedLines?: Promise<ScannedPriceLines | null> | null;
  /** The new snapshot's folder: the accepted price lines are stored in its PRICE_LINES_FILE as they are read. */
  dir: string;
  codeHash: string;
  /**
   * The catalog files but prices are byte-identical to the ones the previous snapshot was compiled
   * from (its stored catalog was taken: stored-catalog.ts), so every entity's record half of its input
   * is too.
   */
  sameCatalog: boolean;
  /** The render threads (createRenderThreads); the caller stops them. */
  pool: EntityPool;
  /**
   * A thread that splits and hashes the price file's lines (read-ahead.ts), used when there are stored
   * lines to take and the source reads a file on this machine: the main thread then takes most lines
   * by a key it did not compute. In a compile with nothing stored, both cores are busy rendering and
   * the lines are hashed here (no copy into a shared slot).
   */
  lineReader?: LineBatchReader;
  progress: ProgressSink;
}

/**
 * The render threads of a compile: each object they compress is appended to the pack by the main
 * thread (workers only render and compress), which copies the bytes out of the batch's arena
 * (entity-jobs.ts), and gets its row in the object table.
 */
export function createRenderThreads(
  fxRates: FxRateRecord[], packsDir: string, out: PackOutput, table: ObjectTable, workers: number, threads: ThreadMode,
): EntityPool {
  // packsDir: where the page patches of the aggregates read the previous pages (document-sink.ts).
  return createEntityPool({ fxRates, packsDir }, workers, (objects, _jobs, arena) => {
    for (const o of objects) table.add({ key: o.key, size: o.length, sha256: o.sha256, input: o.input, at: out.write(objectBytes(o, arena)) });
  }, threads);
}

/**
 * Streams the price file once. Each card/figure is either re-used from the previous snapshot (same
 * input fingerprint: record, set or series, raw price line, FX quotes used) or sent to the workers.
 */
export async function renderEntities(catalog: LoadedCatalog, source: CatalogSource, p: EntityPhase): Promise<PriceSummaries> {
  const fx = createFxLookup(catalog.fxRates);
  const version = priceLinesVersion(p.codeHash);
  const linesPath = p.previousDir === null ? null : join(p.previousDir, PRICE_LINES_FILE);
  const scanned = linesPath === null ? null : await (p.scannedLines ?? scanPriceLines(linesPath, version));
  const stored = linesPath === null ? NO_STORED_PRICE_LINES : openPriceLines(linesPath, scanned);
  const summaries: PriceSummaries = {
    // Slot i is entity i of the catalog's order: the aggregates read prices and tokens by position.
    cards: createPriceTable(cardColumns(catalog.cards)),
    figures: createPriceTable(catalog.figures.keys()),
    sparklinePoints: new Map(),
    range: null,
    rendered: { card: [], figure: [], onlyPrices: true },
    priceLines: 0,
    priceLinesReused: 0,
  };
  const { pool } = p;
  let batch: EntityJob[] = [];
  let batchEntities = 0;
  let reused = 0;
  let reusedByLine = 0;
  const flush = async () => {
    const jobs = batch;
    const n = batchEntities;
    batch = [];
    batchEntities = 0;
    await pool.submit(jobs);
    p.progress.advance(n);
  };
  let pending: { entity: 'card' | 'figure'; id: string; job: () => EntityJob; input: string; keys: string[]; record: string }[] = [];
  const setJson = new Map<string, string>();
  const fxByDate = new Map<string, string>();
  const sparklines = createSparklinePoints();
  const seriesJson = new Map<string, string>();

  // The catalog's records in its order: entity i is in slot i of its price table (price-table.ts).
  // The cards by their columns, not as records (source/card-table.ts).
  const figureOrder = [...catalog.figures.values()];
  const inOrder: Record<'card' | 'figure', EntitiesInOrder> = {
    card: cardColumns(catalog.cards),
    figure: {
      length: figureOrder.length,
      id: (i) => figureOrder[i].id,
      isId: (i, id) => figureOrder[i].id === id,
      isIdBytes: (i, bytes, at, length) => bytesAre(figureOrder[i].id, bytes, at, length),
      watchers: (i) => figureOrder[i].watchers,
    },
  };
  /**
   * The slot stored with a known line when its entity is there (price-line-store.ts: with the
   * previous compile's catalog files, the place is the same), else -1 (looked up by id).
   */
  const storedSlot = (hit: KnownPriceLine): number => {
    const order = inOrder[hit.entity];
    const s = hit.slot;
    return s >= 0 && s < order.length && order.isId(s, hit.id) ? s : -1;
  };
  /** The slot of the entity `handle` was last called for when it has a price (stored with its line), else -1. */
  let handledSlot = -1;

  // With the previous compile's catalog files, a line the previous snapshot stored unchanged means an
  // unchanged entity: its input is the one stored with the line (record, set or series and renderer
  // code from the same files and code; the same raw line; the same FX quotes for the same last day).
  const shortcut = p.sameCatalog && p.table.reusesInPlace;

  /**
   * Re-uses or renders one entity; returns the token of its input (stored with its price line for the
   * next compile). `latest`: its price summary but the recent days, which come from `summary` (a
   * parsed line) or are read from the stored line (`line.known`) only for the sparklines' candidates.
   */
  const handle = async (
    entity: 'card' | 'figure', id: string, line: PriceLine<KnownPriceLine> | null, latest: LatestPrice | null, summary: PriceSummary | null,
  ): Promise<string> => {
    let fxPart = '';
    const prices = entity === 'card' ? summaries.cards : summaries.figures;
    let slot = -1;
    if (latest) {
      // The entity's slot, when the stream had it from the stored line; else looked up by id.
      const at = line === null ? -1 : line.slot;
      const watchers = at >= 0 ? inOrder[entity].watchers(at) : (entity === 'card' ? catalog.cards.get(id) : catalog.figures.get(id))!.watchers;
      if (at >= 0) prices.setAt((slot = at), latest);
      else slot = prices.set(id, latest);
      if (sparklines.admits(entity, id, watchers)) sparklines.offer(entity, id, watchers, summary ? summary.recentDaily : recentDailyOf(line!.known!));
      // The quotes of a day are looked up once (most series end on one of a few days).
      fxPart = fxByDate.get(latest.lastDate) ?? '';
      if (fxPart === '') fxByDate.set(latest.lastDate, (fxPart = fxFingerprint(fx, latest.lastDate)));
    }
    handledSlot = slot;
    // Only a line the previous compile accepted says its entity's objects are made from it (a line an
    // appended store kept from an earlier compile, found again, does not: price-line-store.ts).
    const previousToken = shortcut && line?.known?.live === true ? line.known.input : undefined;
    if (previousToken !== undefined) {
      // Nothing fingerprinted, looked up, rendered or written: the previous rows stay as they are.
      if (slot >= 0) prices.setTokenAt(slot, previousToken);
      else prices.setToken(id, previousToken);
      // Counted, not keyed: a card's five range objects, a figure's one.
      p.table.reuseInPlace(entity === 'card' ? CARD_OBJECTS : 1);
      reusedByLine++;
      reused++;
      if (reused % BATCH === 0) p.progress.advance(BATCH);
      return previousToken;
    }
    // fingerprint(the line's SHA-1, FX quotes): the hash streamPrices took of the line's bytes.
    const pricesPart = line ? line.fingerprint(fxPart) : fingerprint('', fxPart);
    // The series is parsed only for an entity rendered again (a stored line was not parsed). A stored
    // line's bytes are gone once the next line is read, and the entity may wait in `pending`: its
    // text is taken now.
    const text = line !== null && line.record === null ? line.text : null;
    const series = (): PriceSeriesRecord | null => (line ? line.record ?? parseKnownLine(text!) : null);
    let job: () => EntityJob;
    let keys: string[];
    let record: string;
    let input: string;
    if (entity === 'card') {
      const card = catalog.cards.get(id) as CardRecord;
      const set = catalog.setsByKey.get(`${card.game}/${card.setCode}`)!;
      const sKey = `${set.game}/${set.code}`;
      let sj = setJson.get(sKey);
      if (sj === undefined) setJson.set(sKey, (sj = stableJson(set)));
      record = fingerprint(p.codeHash, stableJson(card), sj);
      input = entityInput(record, pricesPart);
      keys = cardKeys(id);
      job = () => ({ kind: 'card', card, set, prices: series(), input });
    } else {
      const figure = catalog.figures.get(id) as FigureRecord;
      const figureSeries = catalog.figureSeries.get(figure.seriesId)!;
      let sj = seriesJson.get(figureSeries.id);
      if (sj === undefined) seriesJson.set(figureSeries.id, (sj = stableJson(figureSeries)));
      record = fingerprint(p.codeHash, stableJson(figure), sj);
      input = entityInput(record, pricesPart);
      keys = [figureKey(id)];
      job = () => ({ kind: 'figure', figure, series: figureSeries, prices: series(), input });
    }
    const token = entityToken(input);
    if (slot >= 0) prices.setTokenAt(slot, token);
    else prices.setToken(id, token);
    if (!p.table.incremental) {
      await render(entity, id, job, record, undefined);
      return token;
    }
    // The previous inputs are looked up PENDING entities at a time: one statement, not one per key.
    pending.push({ entity, id, job, input, keys, record });
    if (pending.length >= PENDING) await decide();
    return token;
  };
  /** Re-uses each pending entity whose objects all have its input in the previous snapshot; renders the others. */
  const decide = async () => {
    const entities = pending;
    pending = [];
    const lookups = entities.map((e) => p.table.entityLookupKeys(e.keys));
    const before = p.table.previousInputs(lookups.flat());
    for (const [i, e] of entities.entries()) {
      if (lookups[i].every((k) => before.get(k) === e.input)) {
        // Unchanged inputs: the previous objects' rows (pack and offset) stay, nothing rendered or compressed.
        p.table.reuse(e.keys, 'entity');
        reused++;
        if (reused % BATCH === 0) p.progress.advance(BATCH);
      } else await render(e.entity, e.id, e.job, e.record, before.get(e.keys[0]));
    }
  };
  const render = async (entity: 'card' | 'figure', id: string, job: () => EntityJob, record: string, previousInput: string | null | undefined) => {
    summaries.rendered[entity].push(id);
    if (recordPartOf(previousInput) !== record) summaries.rendered.onlyPrices = false;
    batch.push(job());
    batchEntities++;
    if (batch.length >= BATCH) await flush();
  };

  // Stored as they are read (price-line-store.ts), not kept to the end: with the previous compile's
  // catalog files, appended to the previous snapshot's store (only the lines it lacks are written).
  const priceLines = (shortcut && linesPath !== null ? appendToPriceLineFile(p.dir, linesPath, version, scanned) : null) ?? createPriceLineFile(p.dir, version);

  /**
   * An unchanged line of an unchanged catalog taken whole, as `handle` would re-use its entity, but
   * with no object per line: the stored line is read in place (price-line-codec.ts readLineAt), its
   * price goes into the entity's slot, its token is the one stored, and its bytes go into the next
   * store as they are. Taken only when its stored slot holds the entity with its id, it has a price,
   * and the slot was not claimed yet (a duplicate goes the usual way, to be rejected there); otherwise
   * nothing is changed and the line is yielded as before (streamPrices `take`).
   */
  const fields = emptyLineFields();
  const takeStoredLine = (key: string, size: number, lineNo: number): boolean => {
    if (!stored.find(key, size, fields) || fields.lastDate === null) return false;
    const entity = fields.entityCode === 0 ? 'card' : 'figure';
    const order = inOrder[entity];
    const s = fields.slot;
    if (s < 0 || s >= order.length || !order.isIdBytes(s, fields.chunk, fields.idAt, fields.idBytes)) return false;
    const prices = entity === 'card' ? summaries.cards : summaries.figures;
    if (prices.lines().claimAt!(s, lineNo) !== undefined) return false;
    prices.setFieldsAt(s, fields.lastDate, fields.lastCents, fields.previousCents, fields.velocity, fields.synthetic);
    const watchers = order.watchers(s);
    // The empty id sorts before any other of the same watchers: when it is not admitted, no id is
    // (and a million ids are not made to ask).
    if (sparklines.admits(entity, '', watchers)) {
      const id = order.id(s);
      if (sparklines.admits(entity, id, watchers)) sparklines.offer(entity, id, watchers, recentDailyOf(fields));
    }
    prices.setTokenAt(s, tokenOf(fields));
    const range = summaries.range;
    // A new range object only when the line widens it (mergePriceRange).
    if (fields.from !== null && (range === null || fields.from < range.from || fields.to! > range.to)) summaries.range = mergePriceRange(range, { from: fields.from, to: fields.to! });
    summaries.priceLinesReused++;
    p.table.reuseInPlace(entity === 'card' ? CARD_OBJECTS : 1);
    reusedByLine++;
    reused++;
    if (reused % BATCH === 0) p.progress.advance(BATCH);
    priceLines.addEncoded(fields);
    return true;
  };
  try {
    // Filled by streamPrices: the entities with an accepted price line, in the price tables' slots.
    const priced: PricedEntities = { card: summaries.cards.lines(), figure: summaries.figures.lines() };
    const known = (key: string, size: number) => stored.get(key, size);
    // With the previous compile's catalog files, a stored line was accepted against these very records.
    const take = shortcut ? takeStoredLine : undefined;
    const linesFile = stored.size > 0 && p.lineReader !== undefined ? source.linesFile?.('prices') : undefined;
    const lines = linesFile === undefined ? undefined : hashedLineBytes(linesFile, p.lineReader!);
    for await (const line of streamPrices(source, catalog, { known, seen: priced, knownAccepted: p.sameCatalog, slotOf: storedSlot, take, lines })) {
      const hit = line.known;
      const facts = hit === null ? priceLineFacts(line.record!) : null;
      let input: string;
      if (hit !== null) {
        summaries.priceLinesReused++;
        summaries.range = mergePriceRange(summaries.range, hit.range);
        input = await handle(line.entity, line.id, line, hit.latest, null);
      } else {
        summaries.range = mergePriceRange(summaries.range, facts!.range);
        input = await handle(line.entity, line.id, line, latestOf(facts!.summary), facts!.summary);
      }
      // A stored line whose entity kept its input and slot is stored again as it was: same bytes, not
      // encoded again.
      if (hit !== null && hit.input === input && hit.slot === handledSlot) priceLines.addEncoded(hit);
      else priceLines.add({ key: line.key, input, bytes: line.size, slot: handledSlot, facts: facts ?? factsOfDecoded(hit!) }, hit !== null);
    }
    summaries.priceLines = priceLines.finish();
    summaries.sparklinePoints = sparklines.points();
    if (stored.size > 0) p.progress.note(`price lines: ${summaries.priceLinesReused} of ${summaries.priceLines} unchanged, taken from the previous snapshot without parsing`);
    if (reusedByLine > 0) p.progress.note(`cards and figures: ${reusedByLine} re-used with the input stored beside their unchanged price line (the catalog files are the previous snapshot's)`);
    // The entities without a price line, found by place (a look-up by id per entity was about 1.4 s
    // of a million-card profile).
    for (const [entity, table] of [['card', summaries.cards], ['figure', summaries.figures]] as const) {
      const records = inOrder[entity];
      for (let i = 0; i < records.length; i++) if (!table.hasLineAt(i)) await handle(entity, records.id(i), null, null, null);
    }
    await decide();
    await flush();
    p.progress.advance(reused % BATCH);
    await pool.settle();
  } catch (err) {
    priceLines.abort();
    throw err;
  } finally {
    stored.close();
  }
  return summaries;
}

/** A summary but its recent days (written out: a rest pattern copies through a runtime call). */
function latestOf(s: PriceSummary | null): LatestPrice | null {
  return s === null ? null : { lastDate: s.lastDate, lastCents: s.lastCents, previousCents: s.previousCents, velocity24h: s.velocity24h, synthetic: s.synthetic };
}

function fxFingerprint(fx: FxLookup, date: string): string {
  let s = '';
  for (const c of CURRENCIES) {
    const q = fx.quoteOn(date, c);
    s += q ? `${c}:${q.rate}:${q.date}:${q.source};` : `${c}:-;`;
  }
  return s;
}

/** The cards or the figures in the catalog's order, as the entity phase reads them. */
interface EntitiesInOrder {
  readonly length: number;
  id(i: number): string;
  isId(i: number, id: string): boolean;
  isIdBytes(i: number, bytes: Uint8Array, at: number, length: number): boolean;
  watchers(i: number): number;
}
