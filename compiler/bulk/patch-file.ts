/**
 * A document bulk file patched from the objects this compile changed, on the bulk thread (issue 17:
 * an incremental compile's work follows the change).
 *
 * When no key of the file was added or removed (a DocumentPatch: patch-job.ts) and the previous
 * snapshot kept its file's segments (segment-state.ts), each changed key is found among the segments'
 * first keys. A segment holding one is compressed again, and so is the one after it when the change
 * is among the lines its dictionary is made of (segmented-gzip.ts); only those, and the one before
 * each (whose last lines are the dictionary), are read from the previous object index, by key range.
 * Every other segment is copied compressed from the previous file. The file's input fingerprint
 * comes from the stored segment digests with the touched ones made again. So the work follows the changed objects
 * and the segments around them, not the million keys of the file; the bytes, the input fingerprint
 * and the new segment state are those a full build of the same objects makes
 * (test/compiler/bulk/patch-file.test.ts).
 *
 * `planDocumentPatch` answers null whenever it cannot be sure (no state, a previous file that does
 * not match its manifest entry or its state, a changed key in no segment, rows that do not add up):
 * the caller then builds the file the long way, which reports any real error.
 *
 * @example
 *   const plan = planDocumentPatch(patch, previousEntry, previousDir);
 *   if (plan && plan.input !== previousEntry.input) { const { size, sha256 } = plan.write(path); }
 */
import { closeSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { constants, crc32, inflateRawSync } from 'node:zlib';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { BulkFile } from '../../snapshots/manifest.js';
import { createGunzipEngine } from '../../snapshots/gzip-engine.js';
import { createPackReader } from '../../snapshots/packs/pack-reader.js';
import { coalescedReads, spansOf, warmReads, type ObjectPlaces } from './object-reads.js';
import { DOCUMENT_RANGES } from './document-ranges.js';
import type { DocumentPatch } from './patch-job.js';
import { fileSha256, rangeReader } from './previous-file.js';
import { DICTIONARY_BYTES, fileChecksum, readSegmentTable, segmentedHeader, segmentOf, type SegmentFacts } from './segmented-gzip.js';
import { inputOfSegments, readSegmentState, segmentDigest, segmentOfKey, type SegmentState } from './segment-state.js';
import { bufferedOutput, dictionaryTail, lineOfObject, TAIL_OBJECTS } from './write-file.js';

const DIGEST = 32;

/** The lines of the segments a patch reads: each line's key, digest and where its object is. */
interface Lines {
  keys: string[];
  shas: Uint8Array;
  packs: string[];
  offsets: number[];
  sizes: number[];
  /** The first line of each segment read (by segment number). */
  first: Map<number, number>;
  /** The lines whose object changed. */
  changed: Set<number>;
}

export interface PatchPlan {
  /** The new file's input fingerprint (equal to the previous one's when nothing changed). */
  input: string;
  /** Its lines: the previous file's count (no key was added or removed). */
  count: number;
  /** Its segments, for the next compile. */
  state: SegmentState;
  /** Segments that hold a changed object. */
  touched: number;
  /**
   * Writes the file to `path` (via a temporary name); `compressed` counts the segments compressed
   * again (the touched ones, and those after them whose dictionary changed), the others were copied;
   * `inflated`, those of them whose unchanged lines were taken from the previous file's segment.
   */
  write(path: string): { size: number; sha256: string; compressed: number; inflated: number };
  /** Starts reading what `write` will read of the packs for its dictionaries on the thread pool (warmReads): call it just before; await it after. */
  warm(): Promise<void>;
}

/** What a patch of a previous file reads before its changes: its segments' state and table, the file checked against its manifest entry. */
export interface PatchBase {
  /** The previous file's SHA-256 (its manifest entry's), which the base was made for. */
  sha256: string;
  state: SegmentState;
  table: { offsets: number[]; segments: SegmentFacts[] };
  prevPath: string;
}

/**
 * The base of a patch of file `prev` (the previous snapshot's manifest entry of document file
 * `name`), or null when it cannot be made safely. Needs no change: the bulk thread makes it while the
 * catalog is read (about 1.1 s at a million cards; background-bulk.ts), and a patch given none makes it.
 */
export function openPatchBase(name: DocumentPatch['name'], prev: BulkFile, previousDir: string): PatchBase | null {
  const state = readSegmentState(previousDir, name, prev.sha256);
  if (state === null) return null;
  const prevPath = join(previousDir, prev.file);
  let size: number;
  try {
    size = statSync(prevPath).size;
  } catch {
    return null;
  }
  if (size !== prev.size) return null;
  const table = readSegmentTable(prevPath, size);
  const total = state.lines.reduce((a, b) => a + b, 0);
  if (table === null || table.segments.length !== state.firstKeys.length || total !== prev.count) return null;
  // Its segments are copied as they are: the file must be the one its manifest entry names.
  if (fileSha256(prevPath) !== prev.sha256) return null;
  return { sha256: prev.sha256, state, table, prevPath };
}

/**
 * The plan of a patch of file `prev` (the previous snapshot's manifest entry), or null when it cannot
 * be made safely. `base`: openPatchBase of the same file, made earlier (one made for another file is
 * not used).
 */
export function planDocumentPatch(patch: DocumentPatch, prev: BulkFile, previousDir: string, base?: PatchBase | null): PatchPlan | null {
  const made = base !== undefined && base !== null && base.sha256 === prev.sha256 && base.prevPath === join(previousDir, prev.file) ? base : openPatchBase(patch.name, prev, previousDir);
  if (made === null) return null;
  const { state, table, prevPath } = made;
  const n = state.firstKeys.length;

  // The segments that hold a changed object, those compressed again, and those whose lines are read.
  const touched = new Uint8Array(n);
  for (const c of patch.changed) {
    const s = segmentOfKey(state.firstKeys, c.key);
    if (s < 0) return null;
    touched[s] = 1;
  }
  // A segment after a touched one may be compressed again (its dictionary may have changed), and
  // the one before a segment compressed again gives it its dictionary: their lines are read too.
  const read = new Uint8Array(n);
  for (let s = 0; s < n; s++) {
    if (touched[s] === 0) continue;
    read[s] = 1;
    if (s > 0) read[s - 1] = 1;
    if (s + 1 < n) read[s + 1] = 1;
  }

  const lines = readLines(patch, state, read);
  if (lines === null) return null;
  // The changed objects replace their lines' digests and places (both lists in key order).
  let at = 0;
  for (const c of patch.changed) {
    while (at < lines.keys.length && lines.keys[at] < c.key) at++;
    if (at === lines.keys.length || lines.keys[at] !== c.key || c.digest.length !== DIGEST) return null;
    lines.shas.set(c.digest, at * DIGEST);
    lines.changed.add(at);
    lines.packs[at] = c.pack;
    lines.offsets[at] = c.offset;
    lines.sizes[at] = c.size;
  }
  const digests = state.digests.slice();
  for (let s = 0; s < n; s++) {
    if (touched[s] === 0) continue;
    const a = lines.first.get(s)!;
    digests.set(segmentDigest(lines.keys, lines.shas, a, a + state.lines[s]), s * DIGEST);
  }
  return {
    input: inputOfSegments(digests),
    count: prev.count,
    state: { firstKeys: state.firstKeys, lines: state.lines, digests },
    touched: touched.reduce((a, b) => a + b, 0),
    write: (path) => writePatched(path, prevPath, patch.packsDir, state, table, touched, lines),
    warm: () => warmReads(patch.packsDir, placesOf(lines), tailSpans(state, touched, lines)),
  };
}

/** Where the lines' objects are, as the pack reads take it. */
function placesOf(lines: Lines): ObjectPlaces {
  return { pack: (i) => lines.packs[i], offset: (i) => lines.offsets[i], size: (i) => lines.sizes[i] };
}

/**
 * The reads of the dictionaries writePatched takes from objects: the last TAIL_OBJECTS lines of each
 * segment copied before one compressed again (the first step of dictionaryTail; a tail that needs
 * more reads the rest itself). The changed lines' objects are this compile's, just written.
 */
function tailSpans(state: SegmentState, touched: Uint8Array, lines: Lines): number[] {
  const spans: number[] = [];
  const places = placesOf(lines);
  for (let s = 1; s < touched.length; s++) {
    if (touched[s] === 0 || touched[s - 1] === 1) continue;
    const a = lines.first.get(s - 1)!;
    const b = a + state.lines[s - 1];
    spansOf(places, Math.max(a, b - TAIL_OBJECTS), b, spans);
  }
  return spans;
}

/** The lines of the segments marked in `read`, from the previous object index, a run of segments per query. */
function readLines(patch: DocumentPatch, state: SegmentState, read: Uint8Array): Lines | null {
  const range = DOCUMENT_RANGES[patch.name];
  const db = new Database(patch.previousIndex, { readonly: true, fileMustExist: true });
  try {
    const packNames = new Map(db.prepare('SELECT seq, sha256 FROM packs').raw().all() as [number, string][]);
    const rows = db.prepare(`SELECT key, pack, offset, length, sha256 FROM objects WHERE key >= ? AND key < ? AND ${boundedWhere(range.where)} ORDER BY key`).raw();
    const out: Lines = { keys: [], shas: new Uint8Array(0), packs: [], offsets: [], sizes: [], first: new Map(), changed: new Set() };
    const shas: Buffer[] = [];
    const n = state.firstKeys.length;
    for (let a = 0; a < n; a++) {
      if (read[a] === 0) continue;
      let b = a;
      let expected = state.lines[a];
      while (b + 1 < n && read[b + 1] === 1) expected += state.lines[++b];
      const start = out.keys.length;
      for (const [key, pack, offset, length, sha] of rows.all(state.firstKeys[a], b + 1 < n ? state.firstKeys[b + 1] : range.to) as [string, number, number, number, Buffer][]) {
        const name = packNames.get(pack);
        if (name === undefined || sha.length !== DIGEST) return null;
        out.keys.push(key);
        shas.push(sha);
        out.packs.push(name);
        out.offsets.push(offset);
        out.sizes.push(length);
      }
      if (out.keys.length - start !== expected || out.keys[start] !== state.firstKeys[a]) return null;
      for (let s = a, line = start; s <= b; line += state.lines[s++]) out.first.set(s, line);
      a = b;
    }
    out.shas = Buffer.concat(shas);
    return out;
  } finally {
    db.close();
  }
}

/**
 * A file's key condition for a query between other bounds: a unary plus makes `key` an expression,
 * so SQLite does not take a GLOB's prefix as the range to scan (the whole file's rows for every
 * segment) instead of the bounds given, and still filters in the query (most rows of the cards' range
 * are the other price ranges' objects, not made into rows).
 */
function boundedWhere(where: string): string {
  return where.replace(/^key /, '+key ');
}

/**
 * The patched file: the touched segments compressed from their lines, and each segment after one
 * whose dictionary (its last DICTIONARY_BYTES of lines) changed; every other segment copied from the
 * previous file. A segment's dictionary is unchanged when the lines that cover its last
 * DICTIONARY_BYTES are all unchanged (the same lines make the same last bytes), so a change early in
 * a segment leaves the next one as it was (about one in three, with 6 lines of 2 KB a segment and
 * 8 KiB of dictionary).
 *
 * The unchanged lines of a segment compressed again are the previous file's: its segment inflated
 * against the previous lines before it (the tail of the segment before, read from its objects, or
 * the previous text of a segment inflated just before), checked against the CRC-32 and length its
 * table entry records. Only the changed lines are made from their objects. Reading and inflating
 * every object of such a segment was about 4.7 s of the bulk thread at a million cards
 * (docs/benchmarks.md, "Incremental compile: the bulk thread's tail and the publish step"); a
 * segment that does not inflate to its recorded lines is made from its objects as before.
 */
function writePatched(path: string, prevPath: string, packsDir: string, state: SegmentState, table: { offsets: number[]; segments: SegmentFacts[] }, touched: Uint8Array, lines: Lines) {
  const packs = createPackReader({ dir: packsDir });
  const gunzip = createGunzipEngine();
  const objects = coalescedReads(packs, placesOf(lines));
  const linesOf = (a: number, b: number): Buffer[] => objects(a, b).map((o, i) => lineOfObject(gunzip, o, lines.keys[a + i]));
  /** The last lines of segment s, as many as a dictionary uses (DICTIONARY_BYTES), or all. */
  const tailOf = (s: number): Buffer => {
    const a = lines.first.get(s)!;
    return dictionaryTail(gunzip, objects, a, a + state.lines[s], (i) => lines.keys[i]);
  };
  /** Whether a changed line is among those that make the last DICTIONARY_BYTES of lines [a, a + text.length). */
  const tailChanged = (a: number, text: Buffer[]): boolean => {
    let length = 0;
    for (let i = text.length - 1; i >= 0; i--) {
      if (lines.changed.has(a + i)) return true;
      length += text[i].length;
      if (length >= DICTIONARY_BYTES) return false;
    }
    // Shorter than a dictionary: all of it is the next one's dictionary.
    return true;
  };
  // The header holds every segment's table entry, so the new segments are made first (at a million
  // cards and 1% of them changed, about a sixth of the file's bytes).
  const made = new Map<number, Buffer>();
  const facts: SegmentFacts[] = [];
  // The lines before segment s: this compile's (`before`) and the previous file's (`oldBefore`),
  // when segment s - 1 was made again; null when it was copied (its lines are the same in both).
  let before: Buffer | null = null;
  let oldBefore: Buffer | null = null;
  let dictionaryChanged = false;
  let inflated = 0;
  const prevFd = openSync(prevPath, 'r');
  try {
    const previousSegments = rangeReader(prevFd, prevPath);
    for (let s = 0; s < state.firstKeys.length; s++) {
      if (touched[s] === 0 && !dictionaryChanged) {
        facts.push(table.segments[s]);
        before = oldBefore = null;
        continue;
      }
      const a = lines.first.get(s)!;
      const n = state.lines[s];
      // Segment s - 1 copied: its lines, the same in both files, are read from its objects.
      const tail: Buffer | null = s === 0 ? EMPTY : before === null ? tailOf(s - 1) : null;
      const oldLines: Buffer | null = oldBefore ?? tail;
      const old: { text: Buffer; lines: Buffer[] } | null = oldLines === null ? null : previousLines(previousSegments.read(table.offsets[s], table.segments[s].compressed), oldLines, table.segments[s], n);
      let parts: Buffer[];
      if (old === null) parts = linesOf(a, a + n);
      else {
        inflated++;
        parts = old.lines;
        for (let i = 0; i < n; i++) if (lines.changed.has(a + i)) parts[i] = lineOfObject(gunzip, objects(a + i, a + i + 1)[0], lines.keys[a + i]);
      }
      const text = Buffer.concat(parts);
      const segment = segmentOf(text, before ?? tail!);
      // Copied out: zlib's result is a view of a buffer of at least 16 KiB, which a few-KB segment
      // kept would hold (about 400 MB more at a million cards).
      made.set(s, Buffer.from(segment.bytes));
      facts.push(segment.facts);
      before = text;
      // The previous lines of this segment: inflated, or (made from objects) this compile's when none
      // changed; else unknown, and the next segment, if made again, is made from its objects.
      oldBefore = old !== null ? old.text : touched[s] === 0 ? text : null;
      dictionaryChanged = touched[s] === 1 && tailChanged(a, parts);
    }
  } catch (err) {
    closeSync(prevFd);
    throw err;
  } finally {
    packs.close();
  }
  const sum = fileChecksum();
  for (const f of facts) sum.add(f);
  const tmp = `${path}.tmp`;
  let out: number;
  try {
    out = openSync(tmp, 'w');
  } catch (err) {
    closeSync(prevFd);
    throw err;
  }
  const hash = createHash('sha256');
  let open = true;
  try {
    const file = bufferedOutput(out, hash);
    const previous = rangeReader(prevFd, prevPath);
    file.put(segmentedHeader(facts));
    for (let s = 0; s < facts.length; s++) file.put(made.get(s) ?? previous.read(table.offsets[s], table.segments[s].compressed));
    file.put(sum.trailer());
    const size = file.finish();
    closeSync(out);
    open = false;
    renameSync(tmp, path);
    return { size, sha256: hash.digest('hex'), compressed: made.size, inflated };
  } catch (err) {
    if (open) closeSync(out);
    rmSync(tmp, { force: true });
    throw err;
  } finally {
    closeSync(prevFd);
  }
}

const EMPTY = Buffer.alloc(0);

/**
 * A previous segment's lines: its compressed bytes inflated against the lines before it (the last
 * DICTIONARY_BYTES of them, as segmentOf compressed it), split after each newline; null when the
 * bytes do not inflate to the `lines` lines its table entry `facts` records (length and CRC-32).
 */
function previousLines(bytes: Buffer, before: Buffer, facts: SegmentFacts, lines: number): { text: Buffer; lines: Buffer[] } | null {
  let text: Buffer;
  try {
    const options = before.length === 0 ? { finishFlush: constants.Z_SYNC_FLUSH } : { finishFlush: constants.Z_SYNC_FLUSH, dictionary: before.subarray(Math.max(0, before.length - DICTIONARY_BYTES)) };
    text = inflateRawSync(bytes, options);
  } catch {
    return null;
  }
  if (text.length !== facts.length || crc32(text) >>> 0 !== facts.crc >>> 0) return null;
  const out: Buffer[] = [];
  for (let from = 0; from < text.length; ) {
    const end = text.indexOf(NEWLINE, from);
    if (end < 0) return null;
    out.push(text.subarray(from, end + 1));
    from = end + 1;
  }
  return out.length === lines ? { text, lines: out } : null;
}

const NEWLINE = 0x0a;
