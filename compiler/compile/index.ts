/**
 * `compileSnapshot`: the canonical catalog in, a published snapshot out.
 *
 * Phases: read + validate the catalog (everything but prices, which are streamed); render every card
 * and figure while its price series streams past (worker threads, both cores), keeping only a small
 * PriceSummary per entity; render the aggregate documents on the main thread; build the search
 * index; check, write the manifest last, switch `current`, prune. Any failure removes the
 * half-written folder and leaves `current` where it was.
 *
 * @example
 *   const summary = await compileSnapshot({ source: 'data/catalog', out: 'data/snapshots' });
 *   summary.snapshotId  // '20261122T020000Z-1a2b3c4d'
 */
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { CURRENCIES, type CardRecord, type FigureRecord, type PriceSeriesRecord } from '../../snapshots/records.js';
import Database from 'better-sqlite3';
import { figureKey, OBJECT_INDEX_FILE, PACKS_DIR, SEARCH_DB_FILE } from '../../snapshots/keys.js';
import { fingerprint, stableJson } from '../../snapshots/codec.js';
import { CatalogError } from '../../snapshots/errors.js';
import { MANIFEST_FORMAT, MANIFEST_VERSION_PACKS, type BulkFile, type ChangeEntry, type ManifestEntry, type ManifestHeader, type PackRef } from '../../snapshots/manifest.js';
import { writeObjectIndex } from '../../snapshots/packs/object-index.js';
import { createFsSnapshotWriter, listSnapshots, removeTreeSync } from '../../snapshots/store/fs.js';
import { toTimestamp } from '../../snapshots/envelope.js';
import { openSource, type CatalogSource } from '../source/index.js';
import { loadCatalog, streamPrices, type LoadedCatalog } from '../source/index.js';
import { formatReject } from '../source/rejects.js';
import { createFxLookup } from '../render/fx.js';
import { summarizePrices } from '../render/price-summary.js';
import type { FxLookup, PriceSummary } from '../render/types.js';
import { extendPriceRange, type PriceRange } from '../render/summary.js';
import { cardKeys, type EntityJob } from './entity-jobs.js';
import { createEntityPool } from './pool.js';
import { ObjectTable, type ChangeCounts, type TableEntry } from './object-table.js';
import { createPackOutput, type PackOutput } from './pack-output.js';
import { createDocumentSink } from './document-sink.js';
import { loadPreviousSnapshot, type PreviousSnapshot } from './previous.js';
import { newSnapshotId } from './snapshot-id.js';
import { rendererCodeHash } from './code-version.js';
import { silentProgress, type ProgressSink } from './progress.js';
import { renderAggregates } from './aggregates.js';
import { startSnapshotSearchIndex } from './search-phase.js';
import { publishSnapshot } from '../publish/publish.js';
import { acquireCompileLock } from './lock.js';
import { changesJob, cardsPerSet, documentJob, setsJob } from '../bulk/write-bulk.js';
import { startBulkFiles } from '../bulk/background-bulk.js';
import type { KeyObject } from 'node:crypto';
import { makeDirsSync } from '../../snapshots/store/make-dirs.js';

export interface CompileOptions {
  /** Catalog folder or http(s) base URL. */
  source: string;
  /** Snapshot root (holds snapshot folders and the `current` pointer). */
  out: string;
  /** Complete snapshots to keep, current included (default 3). */
  keep?: number;
  /** Bad source records that may be skipped (default 0: any bad record fails the compile). */
  maxRejects?: number;
  /** Render worker threads (default: one per core but one, at least 1; 0 renders on the main thread). */
  workers?: number;
  progress?: ProgressSink;
  now?: () => Date;
  /** Ed25519 private key that signs the manifest. */
  signKey?: KeyObject | null;
  /** A pack is sealed once it reaches this many bytes (default 256 MiB; tests use small packs). */
  packBytes?: number;
}

export interface CompileSummary {
  snapshotId: string;
  previousId: string | null;
  objects: number;
  counts: ChangeCounts;
  cards: number;
  figures: number;
  rejects: string[];
  pruned: string[];
  durationMs: number;
}

export interface PriceSummaries {
  cards: Map<string, PriceSummary>;
  figures: Map<string, PriceSummary>;
  /** First and last priced day over all series (catalog summary). */
  range: PriceRange;
}

const BATCH = 64;

function checkOptions(o: CompileOptions): { keep: number; maxRejects: number; workers: number } {
  const keep = o.keep ?? 3;
  const maxRejects = o.maxRejects ?? 0;
  // The main thread parses the source and creates every file; one render worker per remaining core
  // keeps both busy. More threads than cores made file creation several times slower (docs/benchmarks.md).
  const workers = o.workers ?? Math.max(1, availableParallelism() - 1);
  if (!Number.isInteger(keep) || keep < 1) throw new CatalogError('usage', '--keep must be an integer of 1 or more');
  if (!Number.isInteger(maxRejects) || maxRejects < 0) throw new CatalogError('usage', '--max-rejects must be an integer of 0 or more');
  if (!Number.isInteger(workers) || workers < 0 || workers > 64) throw new CatalogError('usage', '--workers must be an integer from 0 to 64');
  return { keep, maxRejects, workers };
}

export async function compileSnapshot(options: CompileOptions): Promise<CompileSummary> {
  const started = Date.now();
  const { keep, maxRejects, workers } = checkOptions(options);
  const progress = options.progress ?? silentProgress;
  const now = options.now ?? (() => new Date());

  const source = openSource(options.source);
  try {
    return await compileFrom(source, options, { keep, maxRejects, workers, progress, now, started });
  } finally {
    await source.close();
  }
}

async function compileFrom(
  source: CatalogSource,
  options: CompileOptions,
  o: { keep: number; maxRejects: number; workers: number; progress: ProgressSink; now: () => Date; started: number },
): Promise<CompileSummary> {
  const { keep, maxRejects, workers, progress, now, started } = o;
  // The output root is made and locked before the catalog is read (23 s at a million cards), so a
  // bad --out or a compile already running fails at once.
  makeDirsSync(options.out);
  const lock = acquireCompileLock(options.out);
  try {
    progress.phase('read catalog', null);
    const seenLines = new Map<string, number>();
    const catalog = await loadCatalog(source, {
      maxRejects,
      // The loader reports a running count per file; the progress line wants increments.
      onProgress: (kind, lines) => {
        progress.advance(lines - (seenLines.get(kind) ?? 0));
        seenLines.set(kind, lines);
      },
    });
    return await compileLocked(catalog, source, options, { keep, maxRejects, workers, progress, now, started });
  } finally {
    lock.release();
  }
}

async function compileLocked(
  catalog: LoadedCatalog,
  source: CatalogSource,
  options: CompileOptions,
  o: { keep: number; maxRejects: number; workers: number; progress: ProgressSink; now: () => Date; started: number },
): Promise<CompileSummary> {
  const { keep, progress, now, started } = o;
  const workers = o.workers;
  progress.phase('previous snapshot', null);
  const previous = await loadPreviousSnapshot(options.out);
  // After every folder in the root, complete or not (the lock is held: no other compile adds one).
  const newest = (await listSnapshots(options.out)).at(-1)?.id ?? null;
  const snapshotId = newSnapshotId(now(), newest);
  const writer = createFsSnapshotWriter(options.out, snapshotId);
  makeDirsSync(writer.dir);
  const packsDir = join(options.out, PACKS_DIR);
  const out = createPackOutput(packsDir, previous, { targetBytes: options.packBytes });
  try {
    const table = new ObjectTable(previous);
    const codeHash = rendererCodeHash();
    const summaries = await renderEntities(catalog, source, { out, previous, table, codeHash, workers, progress });
    const rejects = catalog.rejects.finish().map(formatReject);
    for (const r of rejects) progress.note(`skipped ${r}`);

    // The bulk files read objects back from the packs (by pack and offset), so the packs written so
    // far are sealed first. The search index and the cards and figures bulk files build on their own
    // threads while the aggregates render here; the oracle, sets and changes bulk files follow.
    out.seal();
    const locate = { packsDir, of: (e: ManifestEntry) => out.locate((e as TableEntry).at) };
    const bulkFiles = startBulkFiles({ dir: writer.dir, previousDir: previous?.dir ?? null });
    bulkFiles.submit(documentJob('cards', table.values(), previous?.objects, locate));
    bulkFiles.submit(documentJob('figures', table.values(), previous?.objects, locate));
    let counts: ChangeCounts;
    let bulk: BulkFile[];
    let changes: ChangeEntry[];
    try {
      progress.phase('search index', null);
      const search = await startSnapshotSearchIndex(join(writer.dir, SEARCH_DB_FILE), catalog, summaries, progress);
      try {
        progress.phase('aggregate documents', null);
        const sink = createDocumentSink(out, table, previous, codeHash);
        renderAggregates(catalog, summaries, summaries.range, sink, progress);
        out.seal();
        progress.phase('search index finish', null);
        await search.finish();
      } catch (err) {
        await search.abort();
        throw err;
      }
      ({ counts, changes } = table.diff());
      bulkFiles.submit(documentJob('oracle', table.values(), previous?.objects, locate));
      bulkFiles.submit(setsJob(catalog.sets, cardsPerSet(catalog.cards.values())));
      bulkFiles.submit(changesJob(changes));
      progress.phase('bulk files', null);
      bulk = await bulkFiles.finish();
    } catch (err) {
      await bulkFiles.abort();
      throw err;
    }
    progress.phase('object index', null);
    const rewritten = out.compact(table.values());
    if (rewritten.length > 0) progress.note(`rewrote the live objects of ${rewritten.length} sparse pack(s)`);
    const packs = writeSnapshotIndex(join(writer.dir, OBJECT_INDEX_FILE), out, table.sorted());
    progress.phase('publish', null);
    const header: ManifestHeader = {
      format: MANIFEST_FORMAT,
      version: MANIFEST_VERSION_PACKS,
      snapshotId,
      asOf: toTimestamp(catalog.meta.asOf),
      objects: table.size,
      previous: previous?.id ?? null,
      counts,
      bulk,
      packs,
    };
    const { pruned } = await publishSnapshot({
      root: options.out,
      writer,
      header,
      changes,
      keep,
      signKey: options.signKey,
    });
    return {
      snapshotId,
      previousId: previous?.id ?? null,
      objects: table.size,
      counts,
      cards: catalog.cards.size,
      figures: catalog.figures.size,
      rejects,
      pruned,
      durationMs: Date.now() - started,
    };
  } catch (err) {
    // Sealed packs of a failed compile are content-addressed and unreferenced: the next prune
    // collects them. The unsealed one and the snapshot folder go now.
    out.abort();
    // One call at a time, like the prune: half the CPU of fs.promises.rm (docs/benchmarks.md).
    removeTreeSync(writer.dir);
    throw err;
  }
}

/**
 * Writes the object index (objects.sqlite) and returns the packs it references. Positions in the
 * pack list are assigned on a first pass, so the rows can then be streamed in key order.
 */
function writeSnapshotIndex(path: string, out: PackOutput, sorted: TableEntry[]): PackRef[] {
  const { packs, position } = out.finish();
  for (const e of sorted) position(e.at);
  const db = new Database(path);
  try {
    // A fresh file written once and published only after it is complete: no journal needed.
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    writeObjectIndex(db, packs, (function* () {
      for (const e of sorted) yield { key: e.key, pack: position(e.at), offset: e.at.offset, length: e.size, sha256: e.sha256, input: e.input };
    })());
  } finally {
    db.close();
  }
  return packs;
}

interface EntityPhase {
  out: PackOutput;
  previous: PreviousSnapshot | null;
  table: ObjectTable;
  codeHash: string;
  workers: number;
  progress: ProgressSink;
}

/**
 * Streams the price file once. Each card/figure is either re-used from the previous snapshot (same
 * input fingerprint: record, set or series, raw price line, FX quotes used) or sent to the workers.
 */
async function renderEntities(catalog: LoadedCatalog, source: CatalogSource, p: EntityPhase): Promise<PriceSummaries> {
  const fx = createFxLookup(catalog.fxRates);
  const summaries: PriceSummaries = { cards: new Map(), figures: new Map(), range: null };
  const total = catalog.cards.size + catalog.figures.size;
  p.progress.phase('cards and figures', total);
  // The main thread appends every object to the pack (workers only render and compress): see entity-jobs.ts.
  const pool = createEntityPool({ fxRates: catalog.fxRates }, p.workers, (objects) => {
    for (const o of objects) {
      const bytes = Buffer.from(o.bytes.buffer, o.bytes.byteOffset, o.bytes.byteLength);
      p.table.add({ key: o.key, size: bytes.length, sha256: o.sha256, input: o.input, at: p.out.write(bytes) });
    }
  });
  let batch: EntityJob[] = [];
  let batchEntities = 0;
  let reused = 0;
  const flush = async () => {
    const jobs = batch;
    const n = batchEntities;
    batch = [];
    batchEntities = 0;
    await pool.submit(jobs);
    p.progress.advance(n);
  };
  const setJson = new Map<string, string>();
  const seriesJson = new Map<string, string>();

  const handle = async (entity: 'card' | 'figure', id: string, prices: PriceSeriesRecord | null, text: string | null) => {
    const summary = prices ? summarizePrices(prices) : null;
    if (summary) (entity === 'card' ? summaries.cards : summaries.figures).set(id, summary);
    const fxPart = summary ? fxFingerprint(fx, summary.lastDate) : '';
    let job: EntityJob;
    let keys: string[];
    const prev = p.previous;
    if (entity === 'card') {
      const card = catalog.cards.get(id) as CardRecord;
      const set = catalog.setsByKey.get(`${card.game}/${card.setCode}`)!;
      const sKey = `${set.game}/${set.code}`;
      let sj = setJson.get(sKey);
      if (sj === undefined) setJson.set(sKey, (sj = stableJson(set)));
      const input = fingerprint(p.codeHash, stableJson(card), sj, text ?? '', fxPart);
      keys = cardKeys(id);
      job = { kind: 'card', card, set, prices, input };
    } else {
      const figure = catalog.figures.get(id) as FigureRecord;
      const series = catalog.figureSeries.get(figure.seriesId)!;
      let sj = seriesJson.get(series.id);
      if (sj === undefined) seriesJson.set(series.id, (sj = stableJson(series)));
      const input = fingerprint(p.codeHash, stableJson(figure), sj, text ?? '', fxPart);
      keys = [figureKey(id)];
      job = { kind: 'figure', figure, series, prices, input };
    }
    const input = job.input;
    if (prev && keys.every((k) => prev.objects.get(k)?.input === input)) {
      // Unchanged inputs: the previous objects' pack and offset, instead of rendering and compressing again.
      for (const k of keys) {
        const o = prev.objects.get(k)!;
        p.table.add({ key: k, size: o.size, sha256: o.sha256, input: o.input, at: p.out.reuse(k, o) });
      }
      reused++;
      if (reused % BATCH === 0) p.progress.advance(BATCH);
      return;
    }
    batch.push(job);
    batchEntities++;
    if (batch.length >= BATCH) await flush();
  };

  try {
    const priced = { card: new Set<string>(), figure: new Set<string>() };
    for await (const { record, text } of streamPrices(source, catalog)) {
      priced[record.entity].add(record.id);
      summaries.range = extendPriceRange(summaries.range, record);
      await handle(record.entity, record.id, record, text);
    }
    for (const id of catalog.cards.keys()) if (!priced.card.has(id)) await handle('card', id, null, null);
    for (const id of catalog.figures.keys()) if (!priced.figure.has(id)) await handle('figure', id, null, null);
    await flush();
    p.progress.advance(reused % BATCH);
    await pool.drain();
  } catch (err) {
    await pool.terminate();
    throw err;
  }
  return summaries;
}

function fxFingerprint(fx: FxLookup, date: string): string {
  let s = '';
  for (const c of CURRENCIES) {
    const q = fx.quoteOn(date, c);
    s += q ? `${c}:${q.rate}:${q.date}:${q.source};` : `${c}:-;`;
  }
  return s;
}
