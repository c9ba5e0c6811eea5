/**
 * The one step that makes a snapshot visible. Order matters: the packs are sealed (fsynced, renamed
 * to their hash) and the object index and change list are written before this runs (the change list
 * by `writeChangeList`, while the search index finishes on its thread); here the snapshot's files are
 * checked and hashed into the manifest header, the signature and then
 * the manifest are written LAST (its presence marks a folder complete), then `current` is switched by
 * an atomic rename and old snapshots and unreferenced packs are pruned. A crash before the switch
 * leaves the previous snapshot serving; the next compile removes the debris.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { CHANGES_FILE, OBJECT_INDEX_FILE, PACKS_DIR, SEARCH_DB_FILE } from '../../snapshots/keys.js';
import type { ChangeEntry, ManifestHeader, SnapshotFileRef } from '../../snapshots/manifest.js';
import { packFileName } from '../../snapshots/packs/pack-writer.js';
import { pruneSnapshots } from '../../snapshots/store/fs.js';
import { switchCurrent } from '../../snapshots/store/pointer.js';
import type { SnapshotWriter } from '../../snapshots/store/types.js';
import { startHash, takeHash, type EarlyHash } from './early-hash.js';
import { CatalogError } from '../../snapshots/errors.js';
import { writeManifestFile } from './signed-manifest.js';
import { changeLine, linesHash } from '../bulk/write-bulk.js';
import type { Retention } from '../../snapshots/store/retention.js';

export interface PublishInput {
  root: string;
  writer: SnapshotWriter;
  /** The header without `files` (hashed here, once every file exists). */
  header: ManifestHeader;
  /** What the prune after the switch keeps (snapshots/store/retention.ts). */
  keep: number | Retention;
  /** Ed25519 key that signs the manifest (manifest.ndjson.sig); unsigned when absent. */
  signKey?: KeyObject | null;
  /** Files of SNAPSHOT_FILES hashed already, as soon as each was final (early-hash.ts); the others are hashed here. */
  hashed?: ReadonlyMap<string, EarlyHash>;
}

/** The files of a packed snapshot besides its bulk files, each listed with its size and SHA-256. */
export const SNAPSHOT_FILES = [OBJECT_INDEX_FILE, SEARCH_DB_FILE, CHANGES_FILE] as const;

/**
 * Every pack the header lists exists in the root with its recorded size, and every file of
 * `names` exists in the snapshot folder; throws `io` naming the first problems.
 */
export function checkWritten(root: string, dir: string, header: ManifestHeader, names: readonly string[]): void {
  const problems: string[] = [];
  const sizeOf = (path: string): number | null => {
    try {
      return statSync(path).size;
    } catch {
      return null;
    }
  };
  for (const p of header.packs ?? []) {
    const size = sizeOf(join(root, PACKS_DIR, packFileName(p.sha256)));
    if (size === null) problems.push(`${PACKS_DIR}/${packFileName(p.sha256)}: missing`);
    else if (size !== p.size) problems.push(`${PACKS_DIR}/${packFileName(p.sha256)}: ${size} bytes on disk, ${p.size} recorded`);
    if (problems.length >= 10) break;
  }
  for (const f of names) if (sizeOf(join(dir, f)) === null) problems.push(`${f}: missing`);
  if (problems.length > 0) {
    throw new CatalogError('io', `the new snapshot is incomplete, nothing was published:\n  ${problems.join('\n  ')}`);
  }
}

/**
 * Writes changes.ndjson as the change list is read (thousands of lines per write, never the whole
 * list in memory) and returns its line count and the fingerprint the changes bulk file records
 * (compiler/bulk/write-bulk.ts `changesFileJob` then compresses this file).
 */
export async function writeChangeList(writer: SnapshotWriter, changes: Iterable<ChangeEntry>): Promise<{ input: string; count: number }> {
  const hash = linesHash();
  let count = 0;
  await writer.writeFile(CHANGES_FILE, (function* () {
    let chunk = '';
    for (const c of changes) {
      const line = changeLine(c);
      hash.add(line);
      count++;
      chunk += line;
      if (chunk.length >= 1 << 20) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk !== '') yield chunk;
  })());
  return { input: hash.digest(), count };
}

export async function publishSnapshot(input: PublishInput): Promise<{ pruned: string[] }> {
  const { writer } = input;
  checkWritten(input.root, writer.dir, input.header, SNAPSHOT_FILES);
  const files: SnapshotFileRef[] = [];
  for (const name of SNAPSHOT_FILES) {
    const path = join(writer.dir, name);
    const early = input.hashed?.get(name);
    const hashed = await takeHash(early !== undefined && early.path === path ? early : startHash(path));
    if (hashed === null) throw new CatalogError('io', `cannot read ${path} back; nothing was published`);
    files.push({ name, size: hashed.size, sha256: hashed.sha256 });
  }
  const header: ManifestHeader = { ...input.header, files };
  await writeManifestFile(writer, [JSON.stringify(header) + '\n'], input.signKey ?? null);
  await switchCurrent(input.root, writer.id);
  const pruned = await pruneSnapshots(input.root, input.keep, [writer.id]);
  return { pruned };
}
