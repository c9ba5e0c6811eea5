/**
 * The one step that makes a snapshot visible. Order matters: the compile has already checked every
 * object it wrote against what it recorded (`checkWritten`, run while the search index finishes on
 * the other core); here the required files are checked, the change list is written, the manifest is
 * written LAST (its presence marks a folder complete), then `current` is switched by an atomic rename
 * and old snapshots are pruned. A crash before the switch leaves the previous snapshot serving; the
 * next compile removes the debris.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { CHANGES_FILE } from '../../snapshots/keys.js';
import { manifestLines, type ChangeEntry, type ManifestEntry, type ManifestHeader } from '../../snapshots/manifest.js';
import { pruneSnapshots } from '../../snapshots/store/fs.js';
import { switchCurrent } from '../../snapshots/store/pointer.js';
import type { SnapshotWriter } from '../../snapshots/store/types.js';
import { CatalogError } from '../../snapshots/errors.js';
import { writeManifestFile } from './signed-manifest.js';

export interface PublishInput {
  root: string;
  writer: SnapshotWriter;
  header: ManifestHeader;
  entries: ManifestEntry[];
  changes: ChangeEntry[];
  keep: number;
  /** Extra files the snapshot must contain (e.g. the search index). */
  requiredFiles: string[];
  /** Ed25519 key that signs the manifest (manifest.ndjson.sig); unsigned when absent. */
  signKey?: KeyObject | null;
}

/**
 * Every recorded object exists with the recorded size; throws `io` naming the first problems. The
 * compile passes the entries it wrote itself: objects hard-linked from the previous (verified)
 * snapshot were checked when their link(2) succeeded.
 */
export function checkWritten(dir: string, entries: ManifestEntry[], requiredFiles: string[]): void {
  const problems: string[] = [];
  for (const e of entries) {
    let size: number;
    try {
      size = statSync(join(dir, e.key)).size;
    } catch {
      problems.push(`${e.key}: missing`);
      if (problems.length >= 10) break;
      continue;
    }
    if (size !== e.size) problems.push(`${e.key}: ${size} bytes on disk, ${e.size} recorded`);
    if (problems.length >= 10) break;
  }
  for (const f of requiredFiles) {
    try {
      statSync(join(dir, f));
    } catch {
      problems.push(`${f}: missing`);
    }
  }
  if (problems.length > 0) {
    throw new CatalogError('io', `the new snapshot is incomplete, nothing was published:\n  ${problems.join('\n  ')}`);
  }
}

export async function publishSnapshot(input: PublishInput): Promise<{ pruned: string[] }> {
  const { writer } = input;
  checkWritten(writer.dir, [], input.requiredFiles);
  await writer.writeFile(CHANGES_FILE, (function* () {
    for (const c of input.changes) yield JSON.stringify(c) + '\n';
  })());
  await writeManifestFile(writer, manifestLines(input.header, input.entries), input.signKey ?? null);
  await switchCurrent(input.root, writer.id);
  const pruned = await pruneSnapshots(input.root, input.keep, [writer.id]);
  return { pruned };
}
