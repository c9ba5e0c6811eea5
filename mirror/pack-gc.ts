/**
 * Packs are shared by the mirror's snapshots, so removing a snapshot folder frees nothing by itself:
 * after the old snapshots are pruned, every pack no kept snapshot's manifest lists is deleted. The
 * cost grows with the packs and the kept snapshots, never with the objects.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { MANIFEST_FILE, PACKS_DIR } from '../snapshots/keys.js';
import { readManifestHeader } from '../snapshots/manifest.js';
import { isPackHash } from '../snapshots/packs/pack-reader.js';
import { PACK_SUFFIX } from '../snapshots/packs/pack-writer.js';
import { listSnapshots } from '../snapshots/store/fs.js';

/** Deletes the packs of `root` that no complete snapshot lists; returns how many. */
export async function collectPacks(root: string): Promise<number> {
  const listed = new Set<string>();
  for (const s of await listSnapshots(root)) {
    if (!s.complete) continue;
    for (const p of (await readManifestHeader(join(root, s.id, MANIFEST_FILE))).packs ?? []) listed.add(p.sha256);
  }
  let removed = 0;
  for (const name of await readdir(join(root, PACKS_DIR)).catch(() => [] as string[])) {
    const sha = name.slice(0, -PACK_SUFFIX.length);
    if (!name.endsWith(PACK_SUFFIX) || !isPackHash(sha) || listed.has(sha)) continue;
    await rm(join(root, PACKS_DIR, name), { force: true });
    removed++;
  }
  return removed;
}
