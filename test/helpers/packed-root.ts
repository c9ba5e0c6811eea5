/**
 * Packed snapshot roots for the verify tests, on the folder store and on S3.
 *
 * `packFolderSnapshot` turns the current snapshot of a root compiled by the real CLI (per-URL files,
 * manifest version 1) into the packed layout (issue 17) with the project's own pack writer and index
 * writer: the same object bytes appended into packs (small ones, so a small catalog spans several),
 * `objects.sqlite`, the `v1/` folder removed, a version-2 manifest listing packs and files, and a
 * signature when a key is given. `rewritePackedManifest` re-lists the files after a test changed one
 * on purpose, so only the deeper check can catch it. `uploadRoot` copies a root into an S3 store.
 */
import Database from 'better-sqlite3';
import { createHash, type KeyObject } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHANGES_FILE, MANIFEST_FILE, MANIFEST_SIGNATURE_FILE, OBJECT_INDEX_FILE, PACKS_DIR, SEARCH_DB_FILE } from '../../snapshots/keys.js';
import { MANIFEST_VERSION_PACKS, type ManifestEntry, type ManifestHeader } from '../../snapshots/manifest.js';
import { writeObjectIndex, type IndexRow } from '../../snapshots/packs/object-index.js';
import { createPackWriter } from '../../snapshots/packs/pack-writer.js';
import { signManifest } from '../../snapshots/signature.js';
import type { BlobStore } from '../../snapshots/store/blob-store.js';
import { createFolderBlobStore } from '../../snapshots/store/blob-fs.js';
import { readCurrentId } from '../../snapshots/store/pointer.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const ndjson = <T>(path: string): T[] => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);

export function readPackedHeader(root: string, id: string): ManifestHeader {
  return JSON.parse(readFileSync(join(root, id, MANIFEST_FILE), 'utf8')) as ManifestHeader;
}

/** Writes `header` as the snapshot's manifest, with the files' sizes and hashes as they are now, signed with `signKey`. */
export function rewritePackedManifest(root: string, id: string, header: ManifestHeader = readPackedHeader(root, id), signKey?: KeyObject): void {
  const listed = (name: string) => {
    const bytes = readFileSync(join(root, id, name));
    return { name, size: bytes.length, sha256: sha256(bytes) };
  };
  const files = [OBJECT_INDEX_FILE, SEARCH_DB_FILE, CHANGES_FILE].map(listed);
  const bulk = (header.bulk ?? []).map((b) => {
    const now = listed(b.file);
    return { ...b, size: now.size, sha256: now.sha256 };
  });
  const text = JSON.stringify({ ...header, files, bulk }) + '\n';
  writeFileSync(join(root, id, MANIFEST_FILE), text);
  if (signKey) {
    const sig = signManifest(signKey, { snapshotId: id, sha256: sha256(Buffer.from(text)), size: Buffer.byteLength(text) });
    writeFileSync(join(root, id, MANIFEST_SIGNATURE_FILE), JSON.stringify(sig) + '\n');
  }
}

/** Converts the current snapshot of `root` in place; returns its id. */
export async function packFolderSnapshot(root: string, options: { packBytes?: number; signKey?: KeyObject } = {}): Promise<string> {
  const id = await readCurrentId(root);
  if (id === null) throw new Error(`no current snapshot under ${root}`);
  const dir = join(root, id);
  const [header, ...entries] = ndjson<ManifestHeader | ManifestEntry>(join(dir, MANIFEST_FILE)) as [ManifestHeader, ...ManifestEntry[]];
  const writer = createPackWriter({ dir: join(root, PACKS_DIR), targetBytes: options.packBytes ?? 64 * 1024 });
  const rows: IndexRow[] = entries.map((e) => {
    const at = writer.append(readFileSync(join(dir, e.key)));
    return { key: e.key, pack: at.pack, offset: at.offset, length: at.length, sha256: e.sha256, input: e.input };
  });
  const packs = writer.finish().map((p) => ({ sha256: p.sha256, size: p.size }));
  const db = new Database(join(dir, OBJECT_INDEX_FILE));
  writeObjectIndex(db, packs, rows.sort((a, b) => (a.key < b.key ? -1 : 1)));
  db.close();
  rmSync(join(dir, 'v1'), { recursive: true });
  rmSync(join(dir, MANIFEST_SIGNATURE_FILE), { force: true });
  rewritePackedManifest(root, id, { ...header, version: MANIFEST_VERSION_PACKS, packs }, options.signKey);
  return id;
}

/** Copies every object of a folder root (packs, snapshot folders, current.json) into `store`. */
export async function uploadRoot(root: string, store: BlobStore): Promise<void> {
  const local = createFolderBlobStore(root);
  for await (const { key } of local.list('')) await store.put(key, readFileSync(join(root, key)));
}
