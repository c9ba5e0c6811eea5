/**
 * Turns a packed snapshot root (what `catalog compile` writes since issue 17) into a root of per-URL
 * files with signed version-1 manifests: what compiles before issue 17 wrote, and what an origin
 * still serves until its next compile (the folder source reads both layouts). Every object is sliced
 * from its pack by the index and written as its own file with the same bytes; the manifest is the
 * version-1 header (no packs, no files) and one line per object sorted by key; the search index,
 * change list and bulk files are copied. Snapshots already unpacked are skipped, so calling it again
 * after a recompile adds the new snapshot. For the mirror suite of a per-URL origin.
 *
 * @example
 *   await unpackRoot(compiledRoot, perUrlRoot, loadPrivateKey('keys/signing-key.pem'))   // perUrlRoot/<id>/v1/cards/…
 */
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import { dirname, join } from 'node:path';
import { sha256Hex } from '../../snapshots/codec.js';
import { CHANGES_FILE, MANIFEST_FILE, MANIFEST_SIGNATURE_FILE, PACKS_DIR, SEARCH_DB_FILE } from '../../snapshots/keys.js';
import { MANIFEST_VERSION, type ManifestHeader } from '../../snapshots/manifest.js';
import { createPackReader } from '../../snapshots/packs/pack-reader.js';
import { signManifest } from '../../snapshots/signature.js';
import { isSnapshotId, switchCurrent } from '../../snapshots/store/pointer.js';
import { currentId, indexEntries, manifestHeader } from './snapshot-files.js';

/** Unpacks the snapshots of `from` that `to` does not hold yet, oldest first; `to/current` follows `from/current`. */
export async function unpackRoot(from: string, to: string, signKey: KeyObject): Promise<string[]> {
  const ids = readdirSync(from).filter((n) => isSnapshotId(n) && existsSync(join(from, n, MANIFEST_FILE))).sort();
  const packs = createPackReader({ dir: join(from, PACKS_DIR) });
  const done: string[] = [];
  try {
    for (const id of ids.filter((i) => !existsSync(join(to, i, MANIFEST_FILE)))) {
      const dir = join(to, id);
      const entries = indexEntries(from, id);
      if (entries === null) throw new Error(`${from}/${id} is not a packed snapshot`);
      const lines: string[] = [];
      for (const e of entries) {
        const path = join(dir, e.key);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, packs.read(e.pack, e.offset, e.size));
        lines.push(JSON.stringify({ key: e.key, size: e.size, sha256: e.sha256, input: null }));
      }
      for (const name of [SEARCH_DB_FILE, CHANGES_FILE]) if (existsSync(join(from, id, name))) copyFileSync(join(from, id, name), join(dir, name));
      if (existsSync(join(from, id, 'bulk'))) cpSync(join(from, id, 'bulk'), join(dir, 'bulk'), { recursive: true });
      const { packs: _packs, files: _files, ...rest } = manifestHeader(from, id) as ManifestHeader;
      const manifest = Buffer.from([JSON.stringify({ ...rest, version: MANIFEST_VERSION }), ...lines].join('\n') + '\n');
      writeFileSync(join(dir, MANIFEST_SIGNATURE_FILE), JSON.stringify(signManifest(signKey, { snapshotId: id, sha256: sha256Hex(manifest), size: manifest.length })) + '\n');
      writeFileSync(join(dir, MANIFEST_FILE), manifest);
      done.push(id);
    }
  } finally {
    packs.close();
  }
  await switchCurrent(to, currentId(from)!);
  return done;
}
