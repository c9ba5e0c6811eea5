/**
 * The bulk files of a snapshot: what a partner downloads in one request instead of one per document.
 * Gzip NDJSON, one record per line, in key order:
 *
 *   bulk/cards.ndjson.gz     every card's 30d document `data`
 *   bulk/figures.ndjson.gz   every figure document's `data`
 *   bulk/oracle.ndjson.gz    every oracle concept document's `data`
 *   bulk/sets.ndjson.gz      every set record, with its card count
 *   bulk/changes.ndjson.gz   the keys new, changed or removed since the previous snapshot
 *
 * Documents are read back from the objects this compile just published into the folder (in the page
 * cache), so a bulk line is exactly the `data` the API serves. Each file records the fingerprint of
 * its inputs (the hashes of its source objects); when the previous snapshot has a file with the same
 * fingerprint it is hard-linked instead of rebuilt. Output is deterministic (fixed gzip settings,
 * mtime 0), so equal inputs give equal bytes and hashes.
 *
 * The compile builds them on a worker thread (background-bulk.ts) while it renders the aggregates.
 * This file makes each file's job and decides whether the previous file is taken whole; write-file.ts
 * writes the bytes.
 *
 * @example
 *   const file = await buildBulkFile(documentJob('cards', entries), dir, previousDir, await previousBulk(previousDir));
 *   file  // { name: 'cards', file: 'bulk/cards.ndjson.gz', count: 5000, size, sha256, input }
 */
import { createHash } from 'node:crypto';
import { copyFileSync, createReadStream, linkSync } from 'node:fs';
import { join } from 'node:path';
import { stableJson } from '../../snapshots/codec.js';
import { BULK_DIR, MANIFEST_FILE } from '../../snapshots/keys.js';
import { readManifestHeader, type BulkFile, type ChangeEntry } from '../../snapshots/manifest.js';
import type { SetRecord } from '../../snapshots/records.js';
import { makeDirsSync } from '../../snapshots/store/make-dirs.js';
import { StalePreviousBulk, type PreviousFile } from './previous-file.js';
import { patchedJob, type DocumentPatch } from './patch-job.js';
import { BATCH_CHARS, writeDocumentFile, writeGzipLines } from './write-file.js';
import { createDigestList, digestsBefore, reorderDigests, type ChangedObject } from './digests.js';
import { planDocumentPatch, type PatchBase } from './patch-file.js';
import { DOCUMENT_RANGES } from './document-ranges.js';
import { documentInput, readSegmentState, writeSegmentState, type SegmentState } from './segment-state.js';

export const BULK_NAMES = ['cards', 'figures', 'oracle', 'sets', 'changes'] as const;
export type BulkName = (typeof BULK_NAMES)[number];

export const bulkFileOf = (name: string) => `${BULK_DIR}/${name}.ndjson.gz`;

/**
 * Where the objects of a document job are: `packNames[packs[i]]`, `offsets[i]`, `sizes[i]`. Typed
 * arrays and one name per pack, not one string per object: at a million cards the job crosses to the
 * bulk thread as a few flat buffers (a string per object was about 64 MB more to copy and hold twice).
 */
export interface StoredObjects {
  packsDir: string;
  packNames: string[];
  packs: Uint32Array;
  offsets: Float64Array;
  sizes: Float64Array;
}

/**
 * One bulk file to build: its lines come either from stored objects (`keys`, read back from the
 * snapshot folder, each contributing its `data`) or ready-made (`lines`). `input` fingerprints
 * everything the file is built from, so an equal previous file is re-used instead of rebuilt.
 * Plain data, so a job can be posted to the bulk worker thread.
 */
export interface BulkJob {
  name: BulkName;
  input: string;
  count: number;
  keys?: string[];
  /** SHA-256 of each object of `keys`, in the same order (digests.ts). */
  shas?: Uint8Array;
  /**
   * Where each object of `keys` is stored, in the same order (packed snapshots): the pack's SHA-256
   * under `packsDir`, the offset and the length. Without it objects are read from per-URL files.
   */
  stored?: StoredObjects;
  /**
   * The objects the previous snapshot's file was built from (keys and hashes, in its line order;
   * `keys` is 'same' when they are this job's): a line whose object is unchanged is copied from that
   * file instead of read back and decoded.
   */
  previous?: { keys: string[] | 'same'; shas: Uint8Array };
  lines?: string[];
  /** A file whose bytes are the lines (the snapshot's changes.ndjson): compressed as they are, never held whole. */
  linesFile?: string;
  /** A document job given as what changed since the previous snapshot, completed where it is built (patch-job.ts). */
  patch?: DocumentPatch;
}


function hashOf(lines: Iterable<string>): string {
  const h = linesHash();
  for (const l of lines) h.add(l);
  return h.digest();
}

/** The fingerprint `hashOf` gives, fed one line at a time (a file's lines written as they are made). */
export function linesHash(): { add(line: string): void; digest(): string } {
  const h = createHash('sha256');
  return {
    add: (line) => h.update(line).update('\n'),
    digest: () => h.digest('hex'),
  };
}


/**
 * An object a document bulk file is built from: its key, size and SHA-256, as hex (a manifest entry)
 * or as the 32 bytes themselves (the object index's rows: no hex string per object).
 */
export type DocumentEntry = { key: string; size: number } & ({ sha256: string } | { digest: Uint8Array });

/**
 * The job of a document bulk file (`cards`, `figures`, `oracle`) from the snapshot's entries (any
 * order; lines go in key order), and from the previous snapshot's objects when there is one.
 */
export function documentJob<E extends DocumentEntry>(
  name: 'cards' | 'figures' | 'oracle',
  entries: Iterable<E>,
  previousObjects?: Iterable<[string, { sha256: string }]> | null,
  locate?: { packsDir: string; of(entry: E): { pack: string; offset: number } },
  changedSince?: () => ChangedObject[] | null,
): BulkJob {
  const pattern = DOCUMENT_RANGES[name].pattern;
  // Only the fields the file needs, in flat lists: the entries themselves (with their input
  // fingerprints) are not kept (at a million cards they were about 370 MB for the cards file).
  const keys: string[] = [];
  const digests = createDigestList();
  const packOf: string[] = [];
  const offsets: number[] = [];
  const sizes: number[] = [];
  for (const e of entries) {
    if (!pattern.test(e.key)) continue;
    keys.push(e.key);
    if ('digest' in e) digests.addBytes(e.digest);
    else digests.add(e.sha256);
    sizes.push(e.size);
    if (locate) {
      const at = locate.of(e);
      packOf.push(at.pack);
      offsets.push(at.offset);
    }
  }
  // The object index gives its rows in key order already; other callers may not.
  const order = keyOrder(keys);
  const inOrder = <T>(list: T[]): T[] => (order ? order.map((i) => list[i]) : list);
  const sortedKeys = inOrder(keys);
  const shas = digests.finish();
  const sortedShas = order ? reorderDigests(shas, order) : shas;
  const job: BulkJob = {
    name,
    input: documentInput(sortedKeys, sortedShas),
    count: sortedKeys.length,
    keys: sortedKeys,
    shas: sortedShas,
  };
  if (locate) {
    const packNames: string[] = [];
    const packIndex = new Map<string, number>();
    const packs = new Uint32Array(sortedKeys.length);
    inOrder(packOf).forEach((p, i) => {
      let n = packIndex.get(p);
      if (n === undefined) packIndex.set(p, (n = packNames.push(p) - 1));
      packs[i] = n;
    });
    job.stored = { packsDir: locate.packsDir, packNames, packs, offsets: Float64Array.from(inOrder(offsets)), sizes: Float64Array.from(inOrder(sizes)) };
  }
  // The previous objects are the job's own but the few this compile changed, when it knows them
  // (at a million cards, reading the previous index's million rows took 4 s of the main thread).
  const patched = changedSince ? digestsBefore(sortedKeys, sortedShas, changedSince()) : null;
  if (patched) job.previous = { keys: 'same', shas: patched };
  else if (previousObjects) job.previous = previousOf(pattern, previousObjects, sortedKeys);
  return job;
}

/** The previous snapshot's objects of a job, in key order; their keys only when they are not the job's own. */
function previousOf(pattern: RegExp, objects: Iterable<[string, { sha256: string }]>, keys: readonly string[]): NonNullable<BulkJob['previous']> {
  const before: string[] = [];
  const digests = createDigestList();
  for (const [key, o] of objects) {
    if (!pattern.test(key)) continue;
    before.push(key);
    digests.add(o.sha256);
  }
  const order = keyOrder(before);
  const shas = digests.finish();
  const sorted = order ? order.map((i) => before[i]) : before;
  // Usually (no entity added or removed) the keys are the job's own: they are not sent twice.
  const same = sorted.length === keys.length && sorted.every((k, i) => k === keys[i]);
  return { keys: same ? 'same' : sorted, shas: order ? reorderDigests(shas, order) : shas };
}

/** The permutation that sorts `keys`, or null when they are in order already. */
function keyOrder(keys: readonly string[]): number[] | null {
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = keys[i - 1] < keys[i];
  if (sorted) return null;
  return keys.map((_, i) => i).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
}

/** The job of `bulk/sets.ndjson.gz`: every set record with its card count, in game/code order. */
export function setsJob(sets: SetRecord[], perSet: Map<string, number>): BulkJob {
  const lines = [...sets]
    .sort((a, b) => (a.game < b.game ? -1 : a.game > b.game ? 1 : a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
    .map((s) => stableJson({ ...s, cards: perSet.get(`${s.game}/${s.code}`) ?? 0 }) + '\n');
  return { name: 'sets', input: hashOf(lines), count: lines.length, lines };
}

/** One line of changes.ndjson and of the changes bulk file. */
export const changeLine = (c: ChangeEntry): string => JSON.stringify(c) + '\n';

/**
 * The job of `bulk/changes.ndjson.gz` from the snapshot's changes.ndjson, already written with
 * `input` and `count` (compiler/publish/publish.ts `writeChangeList`): at a million cards the change
 * list of a first compile is 5.4 million lines, too many to hold as strings and to copy to a thread.
 */
export function changesFileJob(path: string, change: { input: string; count: number }): BulkJob {
  return { name: 'changes', input: change.input, count: change.count, linesFile: path };
}

export async function previousBulk(previousDir: string | null): Promise<Map<string, BulkFile>> {
  if (previousDir === null) return new Map();
  try {
    const header = await readManifestHeader(join(previousDir, MANIFEST_FILE));
    return new Map((header.bulk ?? []).map((b) => [b.name, b]));
  } catch {
    return new Map();
  }
}

/** True when `err` is the previous bulk file failing to open or decode (gone, truncated, not gzip). */
function isMissing(err: unknown, path: string): boolean {
  const e = err as NodeJS.ErrnoException;
  return (e.code === 'ENOENT' && e.path === path) || e.code === 'Z_BUF_ERROR' || e.code === 'Z_DATA_ERROR';
}

function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/**
 * Builds one bulk file into `dir`, or hard-links the previous snapshot's file when its input
 * fingerprint is the same (equal inputs give equal bytes, so nothing is lost by not rebuilding).
 */
export async function buildBulkFile(
  given: BulkJob, dir: string, previousDir: string | null, previous: Map<string, BulkFile>, bases?: ReadonlyMap<string, PatchBase | null>,
): Promise<BulkFile> {
  makeDirsSync(join(dir, BULK_DIR));
  const file = bulkFileOf(given.name);
  const prev = previous.get(given.name);
  const path = join(dir, file);
  const usable = previousDir !== null && prev !== undefined && prev.file === file ? prev : null;
  /** The previous file, linked when its input is `input`; its segments' state with it. */
  const linked = (input: string): BulkFile | null => {
    if (usable === null || usable.input !== input) return null;
    try {
      linkOrCopy(join(previousDir!, usable.file), path);
    } catch {
      // the previous file is gone: build it again
      return null;
    }
    const state = readSegmentState(previousDir!, usable.name, usable.sha256);
    if (state !== null) writeSegmentState(dir, usable.name, { sha256: usable.sha256, state });
    return { ...usable };
  };
  // Patched from the changed objects alone when the previous snapshot kept its segments (patch-file.ts).
  if (given.patch && usable !== null) {
    const plan = planDocumentPatch(given.patch, usable, previousDir!, bases?.get(given.name));
    if (plan !== null) {
      const same = linked(plan.input);
      if (same !== null) return same;
      // The packs' reads queued first: the pool reads ahead of the patch (object-reads.ts warmReads).
      const warmed = plan.warm();
      try {
        let written;
        try {
          written = plan.write(path);
        } finally {
          await warmed;
        }
        writeSegmentState(dir, given.name, { sha256: written.sha256, state: plan.state });
        return { name: given.name, file, count: plan.count, size: written.size, sha256: written.sha256, input: plan.input };
      } catch (err) {
        if (!(err instanceof StalePreviousBulk)) throw err;
        // the previous file changed under the patch: build it the long way below
      }
    }
  }
  const job = given.patch ? patchedJob(given.patch) : given;
  const same = linked(job.input);
  if (same !== null) return same;
  // Whole segments of the previous file are copied when their lines are unchanged and the file is
  // intact (segmented-gzip.ts); the other segments are compressed from their objects' lines.
  const before = job.previous;
  const reuse =
    previousDir !== null && prev && prev.file === file && before
      ? { path: join(previousDir, prev.file), file: prev, keys: before.keys === 'same' ? (job.keys ?? []) : before.keys, shas: before.shas }
      : null;
  const build = (from: PreviousFile | null) =>
    job.linesFile
      ? writeGzipLines(path, createReadStream(job.linesFile, { encoding: 'utf8', highWaterMark: BATCH_CHARS }))
      : job.lines
        ? writeGzipLines(path, (async function* () { yield* job.lines!; })())
        : writeDocumentFile(job, path, dir, previousDir, from);
  let written: { size: number; sha256: string; state?: SegmentState | null };
  try {
    written = await build(reuse);
  } catch (err) {
    if (!(err instanceof StalePreviousBulk || (reuse && isMissing(err, reuse.path)))) throw err;
    written = await build(null);
  }
  if (written.state) writeSegmentState(dir, job.name, { sha256: written.sha256, state: written.state });
  return { name: job.name, file, count: job.count, size: written.size, sha256: written.sha256, input: job.input };
}

/** Cards per `<game>/<code>` (the `cards` field of a set's bulk line). */
export function cardsPerSet(cards: { readonly length: number; game(i: number): string; setCode(i: number): string }): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < cards.length; i++) {
    const k = `${cards.game(i)}/${cards.setCode(i)}`;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}
