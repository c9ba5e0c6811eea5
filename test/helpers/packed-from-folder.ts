/**
 * A packed snapshot root (issue 17's format) made from a per-URL one, for the hand-made fixture
 * (snapshot-fixture.ts writes one file per object): every object of the current snapshot appended
 * into packs (the real pack writer), the object index (the real writeObjectIndex), the search index,
 * bulk files and change list copied (when the snapshot has them), a version-2 manifest, a real
 * Ed25519 signature, and the pointer. A root that is packed already (what `catalog compile` writes)
 * is returned as it is.
 *
 * @example
 *   const { root, id } = await packedRoot(compiled.root, join(dir, 'packed'));
 */
import { createHash, type KeyObject } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BULK_DIR, CHANGES_FILE, MANIFEST_FILE, MANIFEST_SIGNATURE_FILE, OBJECT_INDEX_FILE, PACKS_DIR, SEARCH_DB_FILE } from '../../snapshots/keys.js';
import { isManifestHeader, MANIFEST_VERSION_PACKS, readManifest, type ManifestEntry, type ManifestHeader } from '../../snapshots/manifest.js';
import { writeObjectIndex, type IndexRow } from '../../snapshots/packs/object-index.js';
import { createPackWriter } from '../../snapshots/packs/pack-writer.js';
import { makeDirsSync } from '../../snapshots/store/make-dirs.js';
import { readCurrentId, switchCurrent } from '../../snapshots/store/pointer.js';
import { generateSigningKeys, signManifest } from '../../snapshots/signature.js';

export interface PackedRoot {
  root: string;
  id: string;
  /** The key that signed the manifest (a fresh one; or null for a root compile packed itself). */
  publicKey: KeyObject | null;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export async function packedRoot(compiledRoot: string, out: string, options: { packBytes?: number } = {}): Promise<PackedRoot> {
  const id = await readCurrentId(compiledRoot);
  if (id === null) throw new Error(`${compiledRoot} has no current snapshot`);
  if (existsSync(join(compiledRoot, id, OBJECT_INDEX_FILE))) return { root: compiledRoot, id, publicKey: null };
  const from = join(compiledRoot, id);
  const dir = join(out, id);
  makeDirsSync(dir);
  let header: ManifestHeader | null = null;
  const entries: ManifestEntry[] = [];
  for await (const item of readManifest(join(from, MANIFEST_FILE))) {
    if (isManifestHeader(item)) header = item;
    else entries.push(item);
  }
  // Small packs by default, so a catalog of a few hundred cards spans several of them.
  const writer = createPackWriter({ dir: join(out, PACKS_DIR), targetBytes: options.packBytes ?? 64 * 1024 });
  const placed = entries.map((e) => ({ e, at: writer.append(readFileSync(join(from, e.key))) }));
  const sealed = writer.finish();
  const rows: IndexRow[] = placed.map(({ e, at }) => ({ key: e.key, pack: at.pack, offset: at.offset, length: at.length, sha256: e.sha256, input: e.input }));
  const db = new Database(join(dir, OBJECT_INDEX_FILE));
  writeObjectIndex(db, sealed.map((p) => ({ sha256: p.sha256, size: p.size })), rows);
  db.close();
  // What a hand-made fixture (snapshot-fixture.ts) lacks is left out of the packed one too.
  const copied = [SEARCH_DB_FILE, CHANGES_FILE].filter((name) => existsSync(join(from, name)));
  for (const name of copied) copyFileSync(join(from, name), join(dir, name));
  if (existsSync(join(from, BULK_DIR))) cpSync(join(from, BULK_DIR), join(dir, BULK_DIR), { recursive: true });
  const fileRef = (name: string) => {
    const bytes = readFileSync(join(dir, name));
    return { name, size: statSync(join(dir, name)).size, sha256: sha256(bytes) };
  };
  const packed: ManifestHeader = {
    ...header!,
    version: MANIFEST_VERSION_PACKS,
    packs: sealed.map((p) => ({ sha256: p.sha256, size: p.size })),
    files: [OBJECT_INDEX_FILE, ...copied].map(fileRef),
  };
  const manifest = Buffer.from(JSON.stringify(packed) + '\n');
  const keys = generateSigningKeys();
  const signature = signManifest(keys.privateKey, { snapshotId: id, sha256: sha256(manifest), size: manifest.length });
  writeFileSync(join(dir, MANIFEST_SIGNATURE_FILE), JSON.stringify(signature) + '\n');
  writeFileSync(join(dir, MANIFEST_FILE), manifest);
  await switchCurrent(out, id);
  return { root: out, id, publicKey: keys.publicKey };
}
