/**
 * The manifest: one NDJSON file, a header line then one line per object sorted by key, so it can be
 * written and read as a stream at any catalog size. A partner mirror diffs two manifests to fetch
 * only what changed, and `catalog verify` re-hashes every object against it. Written last: a
 * snapshot folder without a manifest is incomplete and never published.
 *
 * @example
 *   {"format":"catalog-manifest","version":1,"snapshotId":"20261122T020000Z-1a2b3c4d","asOf":"2026-11-20T00:00:00.000Z","objects":523114,"previous":null}
 *   {"key":"v1/cards/base1-4/30d.json.gz","size":1190,"sha256":"9f…","input":"Qm…"}
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export const MANIFEST_FORMAT = 'catalog-manifest';
/** A folder of per-URL files, one manifest line per object after the header. */
export const MANIFEST_VERSION = 1;
/**
 * A packed snapshot (issue 17): the manifest is the header line alone. Objects live in shared pack
 * files and the snapshot's object index (`objects.sqlite`) says where; the header lists every pack
 * and every file of the snapshot with its size and SHA-256, so the signature over this one line still
 * proves every object (the index holds each object's SHA-256).
 */
export const MANIFEST_VERSION_PACKS = 2;

export interface ManifestHeader {
  format: typeof MANIFEST_FORMAT;
  version: typeof MANIFEST_VERSION | typeof MANIFEST_VERSION_PACKS;
  snapshotId: string;
  asOf: string | null;
  objects: number;
  /** Snapshot this one was compiled incrementally against, if any. */
  previous: string | null;
  counts: { new: number; changed: number; unchanged: number; removed: number };
  /** The snapshot's bulk files (absent in manifests written before bulk files existed). */
  bulk?: BulkFile[];
  /** Version 2: the packs the object index points into, each `packs/<sha256>.pack`. */
  packs?: PackRef[];
  /** Version 2: the snapshot's own files besides the bulk files (object index, search index, changes). */
  files?: SnapshotFileRef[];
}

export interface PackRef {
  sha256: string;
  size: number;
}

export interface SnapshotFileRef {
  /** Path inside the snapshot folder. */
  name: string;
  size: number;
  sha256: string;
}

/** True for the header of a packed snapshot (version 2). */
export function isPackedHeader(header: ManifestHeader): boolean {
  return header.version === MANIFEST_VERSION_PACKS;
}

/**
 * One bulk file: gzip NDJSON, one record per line, sorted by key. `input` fingerprints what it was
 * built from (the hashes of its source objects), so an unchanged bulk file is re-used by the next compile.
 *
 * @example
 *   {"name":"cards","file":"bulk/cards.ndjson.gz","count":5000,"size":1843211,"sha256":"…","input":"…"}
 */
export interface BulkFile {
  name: string;
  /** Path inside the snapshot folder. */
  file: string;
  count: number;
  size: number;
  sha256: string;
  input: string;
}

export interface ManifestEntry {
  key: string;
  size: number;
  sha256: string;
  /** Fingerprint of the inputs the document was rendered from (change detection), or null. */
  input: string | null;
}

export interface ChangeEntry {
  key: string;
  change: 'new' | 'changed' | 'removed';
}

export function manifestLines(header: ManifestHeader, sortedEntries: Iterable<ManifestEntry>): Iterable<string> {
  return (function* () {
    yield JSON.stringify(header) + '\n';
    for (const e of sortedEntries) yield JSON.stringify({ key: e.key, size: e.size, sha256: e.sha256, input: e.input }) + '\n';
  })();
}

/** Streams a manifest file: first the header, then every entry. */
export async function* readManifest(path: string): AsyncGenerator<ManifestHeader | ManifestEntry> {
  const rl = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let first = true;
  for await (const line of rl) {
    if (line.length === 0) continue;
    const parsed = JSON.parse(line) as ManifestHeader | ManifestEntry;
    if (first) {
      first = false;
      if ((parsed as ManifestHeader).format !== MANIFEST_FORMAT) throw new Error(`not a catalog manifest: ${path}`);
    }
    yield parsed;
  }
}

/** The header line alone (the first line of the file): cheap at any manifest size. */
export async function readManifestHeader(path: string): Promise<ManifestHeader> {
  for await (const item of readManifest(path)) {
    if (isManifestHeader(item)) return item;
    break;
  }
  throw new Error(`not a catalog manifest: ${path}`);
}

export function isManifestHeader(v: ManifestHeader | ManifestEntry): v is ManifestHeader {
  return (v as ManifestHeader).format === MANIFEST_FORMAT;
}
