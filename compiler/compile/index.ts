/**
 * `compileSnapshot`: the canonical catalog in, a published snapshot out.
 *
 * Phases, run in order by runner.ts: read + validate the catalog (everything but prices, which are
 * streamed), or take it from the current snapshot's stored catalog when its files did not change
 * (stored-catalog.ts); previous snapshot; the catalog state kept for the next compile; cards and figures (entity-phase.ts: rendered on worker threads while
 * each price series streams past, or re-used by pack and offset); the aggregate documents on the main
 * thread while the search index and the bulk files build on threads of their own (thread.ts); the
 * object index; publish (manifest last, switch `current`, prune packs). Any failure stops the
 * threads, removes the half-written folder and leaves `current` where it was.
 *
 * @example
 *   const summary = await compileSnapshot({ source: 'data/catalog', out: 'data/snapshots' });
 *   summary.snapshotId  // '20261122T020000Z-1a2b3c4d'
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { CHANGES_FILE, OBJECT_INDEX_FILE, PACKS_DIR, SEARCH_DB_FILE } from '../../snapshots/keys.js';
import { CatalogError } from '../../snapshots/errors.js';
import { MANIFEST_FORMAT, MANIFEST_VERSION_PACKS, type ManifestHeader } from '../../snapshots/manifest.js';
import { createFsSnapshotWriter, listSnapshots, removeTreeSync } from '../../snapshots/store/fs.js';
import { toTimestamp } from '../../snapshots/envelope.js';
import { loadCatalog, openSource, type CatalogSource, type LoadedCatalog } from '../source/index.js';
import { formatReject } from '../source/rejects.js';
import type { ThreadMode } from '../threads/thread.js';
import { publishSnapshot, writeChangeList } from '../publish/publish.js';
import { startHash, type EarlyHash } from '../publish/early-hash.js';
import { cardColumns } from '../source/card-table.js';
import { changesFileJob, cardsPerSet, documentJob, previousBulk, setsJob } from '../bulk/write-bulk.js';
import { openObjectTable, type ChangeCounts, type DocumentName, type ObjectTable, type StoredObject } from './object-table.js';
import { createRenderThreads, renderEntities } from './entity-phase.js';
import type { EntityPool } from './pool.js';
import { finishSnapshotIndex } from './object-index-phase.js';
import { createPackOutput } from './pack-output.js';
import { PRICE_LINES_FILE, priceLinesVersion, type ScannedPriceLines } from './price-line-store.js';
import { startReadAhead } from './read-ahead.js';
import type { LineBatchReader } from '../source/hashed-lines.js';
import { createDocumentSink, type EntityTokens } from './document-sink.js';
import { loadPreviousSnapshot, type PreviousSnapshot } from './previous.js';
import { startPrefetch, type Prefetch } from './prefetch.js';
import { newSnapshotId } from './snapshot-id.js';
import { compilerCodeHash, rendererCodeHash } from './code-version.js';
import { silentProgress, type ProgressSink } from './progress.js';
import { renderAggregates } from './aggregates.js';
import { startSnapshotSearchIndex } from './search-phase.js';
import { acquireCompileLock } from './lock.js';
import { createRunner } from './runner.js';
import { startBulkFiles, type BulkFiles } from '../bulk/background-bulk.js';
import { documentPatch } from '../bulk/patch-job.js';
import { SEGMENT_STATE_FILE } from '../bulk/segment-state.js';
import type { KeyObject } from 'node:crypto';
import { makeDirsSync } from '../../snapshots/store/make-dirs.js';
import { retentionOf, type Retention } from '../../snapshots/store/retention.js';
import { boundHeapGrowth } from './heap-growth.js';
import { CATALOG_STATE_FILE, catalogFor, dropOlderCompilerState, keepCatalogState, type CatalogState } from './stored-catalog.js';
import { CARD_GROUPS_FILE, cardGroups, keepCardGroups, readCardGroups, type CardGroups } from './card-groups.js';

export interface CompileOptions {
  /** Catalog folder or http(s) base URL. */
  source: string;
  /** Snapshot root (holds snapshot folders and the `current` pointer). */
  out: string;
  /** Complete snapshots to keep, current included (default 3). */
  keep?: number;
  /** Also keep the newest snapshot of each of this many UTC days (default 0; snapshots/store/retention.ts). */
  keepDaily?: number;
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
  /** Where the render, search and bulk work runs (default: worker threads; `inline` when workers is 0). */
  threads?: ThreadMode;
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

export type { PriceSummaries } from './entity-phase.js';

/** The checked options every phase reads. */
interface Settings {
  keep: Required<Retention>;
  maxRejects: number;
  workers: number;
  threads: ThreadMode;
  progress: ProgressSink;
  now: () => Date;
  started: number;
}

function checkOptions(o: CompileOptions): { keep: Required<Retention>; maxRejects: number; workers: number } {
  const keep = retentionOf({ keep: o.keep ?? 3, keepDaily: o.keepDaily ?? 0 });
  const maxRejects = o.maxRejects ?? 0;
  // The main thread parses the source and creates every file; one render worker per remaining core
  // keeps both busy. More threads than cores made file creation several times slower (docs/benchmarks.md).
  const workers = o.workers ?? Math.max(1, availableParallelism() - 1);
  if (!Number.isInteger(maxRejects) || maxRejects < 0) throw new CatalogError('usage', '--max-rejects must be an integer of 0 or more');
  if (!Number.isInteger(workers) || workers < 0 || workers > 64) throw new CatalogError('usage', '--workers must be an integer from 0 to 64');
  return { keep, maxRejects, workers };
}

export async function compileSnapshot(options: CompileOptions): Promise<CompileSummary> {
  const started = Date.now();
  const { keep, maxRejects, workers } = checkOptions(options);
  boundHeapGrowth();
  const progress = options.progress ?? silentProgress;
  const now = options.now ?? (() => new Date());
  // --workers 0 keeps every phase on the main thread (the search index and bulk files too).
  const threads: ThreadMode = options.threads ?? (workers === 0 ? 'inline' : 'worker');

  const source = openSource(options.source);
  try {
    return await compileFrom(source, options, { keep, maxRejects, workers, threads, progress, now, started });
  } finally {
    await source.close();
  }
}

async function compileFrom(source: CatalogSource, options: CompileOptions, o: Settings): Promise<CompileSummary> {
  const { maxRejects, progress } = o;
  // The output root is made and locked before the catalog is read (23 s at a million cards), so a
  // bad --out or a compile already running fails at once.
  makeDirsSync(options.out);
  const lock = acquireCompileLock(options.out);
  const prefetch = startPrefetch(options.out);
  const readAhead = startReadAhead(o.threads);
  let bulkFiles: BulkFiles | null = null;
  try {
    // The new object index starts as a copy of the previous one: copied while the catalog is read.
    const previous = await loadPreviousSnapshot(options.out);
    if (previous?.packed) prefetch.start(OBJECT_INDEX_FILE, previous.index);
    // The bulk thread starts now: with a previous snapshot it reads what the patches of its document
    // files need before the changes are known while the catalog is read (background-bulk.ts). The
    // cards and figures files are patched only when the catalog files did not change, which the
    // read tells: their part is wasted otherwise (a core half idle during the read).
    bulkFiles = startBulkFiles({ previousDir: previous?.dir ?? null, warm: previous === null ? [] : ['cards', 'figures', 'oracle'] }, o.threads);
    // The previous snapshot's stored price lines are scanned on the read-ahead thread while the
    // catalog is read, once the catalog read has sent that thread all it asks of it.
    const codeHash = rendererCodeHash();
    let scannedLines: Promise<ScannedPriceLines | null> | null = null;
    const scanLines = () => {
      if (previous !== null) scannedLines ??= readAhead.priceLines(join(previous.dir, PRICE_LINES_FILE), priceLinesVersion(codeHash));
    };
    progress.phase('read catalog', null);
    // Taken from the current snapshot's stored catalog when the files did not change (stored-catalog.ts).
    const seenLines = new Map<string, number>();
    const { catalog, state } = await catalogFor(source, options.out, maxRejects, progress, () => loadCatalog(source, {
      maxRejects,
      // The loader reports a running count per file; the progress line wants increments.
      onProgress: (kind, lines) => {
        progress.advance(lines - (seenLines.get(kind) ?? 0));
        seenLines.set(kind, lines);
      },
    }), { ...readAhead, released: scanLines });
    scanLines();
    // With the catalog files unchanged only prices can have changed, so the search index will be a
    // copy of the previous one, updated (search-update.ts): copied while the prices stream.
    if (previous !== null && state.keptFrom !== null && existsSync(join(previous.dir, SEARCH_DB_FILE))) {
      prefetch.start(SEARCH_DB_FILE, join(previous.dir, SEARCH_DB_FILE));
    }
    return await compileLocked(catalog, source, options, o, { state, previous, prefetch, codeHash, scannedLines, lineReader: readAhead.lines, bulkFiles });
  } finally {
    // Finished by then, or stopped: a failed read never got it to compileLocked.
    await bulkFiles?.abort();
    await readAhead.close();
    await prefetch.close();
    lock.release();
  }
}

/** What the compile found and started before the catalog was read. */
interface Start {
  state: CatalogState;
  previous: PreviousSnapshot | null;
  prefetch: Prefetch;
  /** rendererCodeHash(), taken once. */
  codeHash: string;
  /** The previous snapshot's stored price lines, scanned on the read-ahead thread (null: no previous snapshot). */
  scannedLines: Promise<ScannedPriceLines | null> | null;
  /** The read-ahead thread's reader of the price file's lines, split and hashed there (entity-phase.ts). */
  lineReader: LineBatchReader;
  /** The bulk thread, started before the catalog was read; the files go into the new snapshot's folder. */
  bulkFiles: BulkFiles;
}

async function compileLocked(
  catalog: LoadedCatalog, source: CatalogSource, options: CompileOptions, o: Settings, { state, previous, prefetch, codeHash, scannedLines, lineReader, bulkFiles }: Start,
): Promise<CompileSummary> {
  const { keep, workers, threads, progress, now, started } = o;
  const run = createRunner(progress);
  // After every folder in the root, complete or not (the lock is held: no other compile adds one).
  const newest = (await listSnapshots(options.out)).at(-1)?.id ?? null;
  const snapshotId = newSnapshotId(now(), newest);
  const writer = createFsSnapshotWriter(options.out, snapshotId);
  makeDirsSync(writer.dir);
  const packsDir = join(options.out, PACKS_DIR);
  const out = createPackOutput(packsDir, { targetBytes: options.packBytes });
  let table: ObjectTable | null = null;
  let pool: EntityPool | null = null;
  try {
    // The object index is built in place as objects are written (a copy of the previous one when it
    // is packed): object-table.ts.
    const indexPath = join(writer.dir, OBJECT_INDEX_FILE);
    const copied = await run.step('previous snapshot', null, () => prefetch.take(OBJECT_INDEX_FILE, indexPath));
    table = openObjectTable(indexPath, previous, out, copied);
    // Before any price is streamed: the rejects in it are the load's own.
    if (state.filesHash !== null) await run.step('catalog state', null, () => keepCatalogState(writer.dir, catalog, state));
    const entities = catalog.cards.size + catalog.figures.size;
    pool = createRenderThreads(catalog.fxRates, packsDir, out, table, workers, threads);
    const renderThreads = pool;
    const summaries = await run.step('cards and figures', entities, () =>
      renderEntities(catalog, source, {
        out, table: table!, previousDir: previous?.dir ?? null, scannedLines, dir: writer.dir, codeHash, sameCatalog: state.keptFrom !== null, pool: renderThreads, progress, lineReader,
      }),
    );
    // An incremental compile renders few entities and its bulk files copy most of their bytes, so a
    // core is left idle while the aggregates render: the render threads compress them meanwhile. A
    // full compile's bulk and search threads keep both cores busy then, so its render threads stop.
    const compressAggregates = table.incremental && threads === 'worker' && workers > 0;
    if (!compressAggregates) await pool.drain();
    const rejects = catalog.rejects.finish().map(formatReject);
    for (const r of rejects) progress.note(`skipped ${r}`);

    // The bulk files read objects back from the packs (by pack and offset), so the packs written so
    // far are sealed first. The search index and the cards and figures bulk files build on their own
    // threads while the aggregates render here; the oracle, sets and changes bulk files follow.
    // Reading the cards' and figures' rows also deletes those of entities the catalog no longer has.
    table.seal();
    bulkFiles.into(writer.dir);
    run.background(bulkFiles);
    const t = table;
    const locate = { packsDir, of: (e: StoredObject) => e };
    // With the catalog files the previous snapshot's, no card or figure is gone: when no key of a
    // file was added or removed either, the bulk thread patches the previous index's list with the
    // changed objects (patch-job.ts) instead of this thread reading every row back.
    const job = (name: DocumentName, live?: (id: string) => boolean) => {
      const changed = previous !== null && (name === 'oracle' || state.keptFrom !== null) ? t.changedObjects(name) : null;
      if (changed !== null) return documentPatch(name, previous!.index, packsDir, changed);
      return documentJob(name, t.documents(name, live), t.previousDocuments(name), locate, () => t.changedDocuments(name));
    };
    bulkFiles.submit(job('cards', (id) => catalog.cards.has(id)));
    bulkFiles.submit(job('figures', (id) => catalog.figures.has(id)));
    const sets = setsJob(catalog.sets, cardsPerSet(cardColumns(catalog.cards)));
    const previousSearch = previous ? {
      path: join(previous.dir, SEARCH_DB_FILE),
      sameSets: (await previousBulkInput(previous.dir, 'sets')) === sets.input,
      place: (to: string) => prefetch.take(SEARCH_DB_FILE, to),
    } : null;
    const search = run.background(
      await run.step('search index', null, () =>
        startSnapshotSearchIndex(join(writer.dir, SEARCH_DB_FILE), catalog, summaries, progress, threads, previousSearch)),
    );
    // The search entries are made between the aggregates' documents, as fast as the search thread
    // takes them (search-phase.ts): a bounded queue, whatever the size of the catalog.
    const pumping: ProgressSink = {
      phase: (name, total) => progress.phase(name, total),
      advance: (n) => {
        progress.advance(n);
        search.pump();
      },
      note: (line) => progress.note(line),
    };
    const tokens: EntityTokens = (entity, id) => (entity === 'card' ? summaries.cards : summaries.figures).token(id);
    await run.step('aggregate documents', null, async () => {
      // The catalog files but prices are the previous snapshot's (its stored catalog was taken), and
      // so is the code that renders and wires the documents (the renderer and this folder).
      const compilerCode = compilerCodeHash(codeHash);
      const unchangedCatalog = t.sameCompilerCode(compilerCode) && state.keptFrom !== null;
      const groups = cardGroupsFor(catalog, state, compilerCode, unchangedCatalog ? previous!.dir : null, writer.dir, progress);
      await renderAggregates(catalog, summaries, summaries.range, createDocumentSink(out, t, codeHash, tokens, compressAggregates ? renderThreads : null, packsDir), pumping, groups, unchangedCatalog);
      if (compressAggregates) await renderThreads.drain();
      t.seal();
    });
    t.removeStale();
    const counts = t.counts();
    bulkFiles.submit(job('oracle'));
    bulkFiles.submit(sets);
    // The search thread ranks, loads and writes the index while the main thread writes the object
    // index: started here, awaited in its own step. Its failure is handled now and thrown there
    // (or, when the object index fails first, the abort below stops the thread).
    const searchFinished = search.finish();
    searchFinished.catch(() => undefined);
    // Each of the snapshot's files is hashed for the manifest once it is final, while the compile
    // waits for its threads (early-hash.ts), not after them in the publish step.
    const hashed = new Map<string, EarlyHash>();
    const hashNow = (name: string) => hashed.set(name, startHash(join(writer.dir, name)));
    // The main thread's own work while the search index and bulk files finish on their threads.
    const packs = await run.step('object index', null, async () => {
      const { packs, rewritten } = finishSnapshotIndex(out, t);
      if (rewritten.length > 0) progress.note(`rewrote the live objects of ${rewritten.length} sparse pack(s)`);
      hashNow(OBJECT_INDEX_FILE);
      // Then the changes bulk file is compressed from changes.ndjson on the bulk thread.
      bulkFiles.submit(changesFileJob(join(writer.dir, CHANGES_FILE), await writeChangeList(writer, t.changes())));
      hashNow(CHANGES_FILE);
      return packs;
    });
    // The phase's count is the number of entries indexed.
    await run.step('search index finish', null, async () => {
      progress.advance(await searchFinished);
      hashNow(SEARCH_DB_FILE);
    });
    const bulk = await run.step('bulk files', null, () => bulkFiles.finish());
    const header: ManifestHeader = {
      format: MANIFEST_FORMAT,
      version: MANIFEST_VERSION_PACKS,
      snapshotId,
      asOf: toTimestamp(catalog.meta.asOf),
      objects: t.size,
      previous: previous?.id ?? null,
      counts,
      bulk,
      packs,
    };
    const { pruned } = await run.step('publish', null, async () => {
      const published = await publishSnapshot({ root: options.out, writer, header, keep, signKey: options.signKey, hashed });
      await dropOlderCompilerState(options.out, snapshotId, [CATALOG_STATE_FILE, CARD_GROUPS_FILE, PRICE_LINES_FILE, SEGMENT_STATE_FILE]);
      return published;
    });
    t.close();
    return {
      snapshotId,
      previousId: previous?.id ?? null,
      objects: header.objects,
      counts,
      cards: catalog.cards.size,
      figures: catalog.figures.size,
      rejects,
      pruned,
      durationMs: Date.now() - started,
    };
  } catch (err) {
    // Threads first, so nothing writes into the folder while it is removed. Sealed packs of a failed
    // compile are content-addressed and unreferenced: the next prune collects them.
    await pool?.terminate();
    await run.abort();
    table?.close();
    out.abort();
    // One call at a time, like the prune: half the CPU of fs.promises.rm (docs/benchmarks.md).
    removeTreeSync(writer.dir);
    throw err;
  }
}

/** The input fingerprint of one bulk file of the previous snapshot (null when it has none). */
async function previousBulkInput(dir: string, name: string): Promise<string | null> {
  return (await previousBulk(dir)).get(name)?.input ?? null;
}

/**
 * The card groups of the aggregates (card-groups.ts): the previous snapshot's (`previousDir`, given
 * when the catalog and the code are its) when its file holds them, else made from the catalog; kept
 * in the new snapshot's folder `dir` for the next compile when the catalog files have a hash.
 */
function cardGroupsFor(catalog: LoadedCatalog, state: CatalogState, code: string, previousDir: string | null, dir: string, progress: ProgressSink): CardGroups {
  const columns = cardColumns(catalog.cards);
  const expect = state.filesHash === null ? null : { files: state.filesHash, code };
  const previousFile = previousDir === null ? null : join(previousDir, CARD_GROUPS_FILE);
  const kept = expect === null || previousFile === null ? null : readCardGroups(previousFile, expect, columns.length);
  if (kept !== null) progress.note('aggregate documents: the cards grouped by set, artist and oracle concept taken from the previous snapshot (same catalog files and code)');
  const groups = kept ?? cardGroups(columns, catalog.sets);
  if (expect !== null) keepCardGroups(join(dir, CARD_GROUPS_FILE), groups, expect, kept === null ? null : previousFile);
  return groups;
}
