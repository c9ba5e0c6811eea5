/**
 * What a packed snapshot consists of, as store keys: read from its manifest's header (the one line of
 * a version-2 manifest), so publishing, pruning and fetching all work from the signed list and never
 * from a directory walk. Every name in the manifest is checked before it becomes a key or a path.
 *
 * @example
 *   const c = snapshotContents(parsePackedManifest(bytes, 'data/snapshots/2026…/manifest.ndjson'));
 *   c.packs[0]  // { key: 'packs/9f….pack', size: 268435456, sha256: '9f…' }
 *   c.files     // objects.sqlite, search.sqlite, changes.ndjson, bulk/*.ndjson.gz, each `<id>/<name>`
 */
import { CatalogError } from '../errors.js';
import { MANIFEST_FILE, MANIFEST_SIGNATURE_FILE, PACKS_DIR } from '../keys.js';
import { isPackedHeader, MANIFEST_FORMAT, type ManifestHeader } from '../manifest.js';
import { packFileName } from '../packs/pack-writer.js';
import { checkKey } from './blob-store.js';
import { isSnapshotId } from './pointer.js';

export interface StoredFile {
  /** The key in a snapshot root (the same relative path in a folder root). */
  key: string;
  size: number;
  sha256: string;
}

export interface SnapshotContents {
  snapshotId: string;
  header: ManifestHeader;
  /** `packs/<sha256>.pack`, each listed once. */
  packs: StoredFile[];
  /** The snapshot's own files (index, search, changes, bulk), without the manifest and its signature. */
  files: StoredFile[];
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
export const PACK_KEY = /^packs\/([0-9a-f]{64})\.pack$/;

export const manifestKey = (id: string) => `${id}/${MANIFEST_FILE}`;
export const signatureKey = (id: string) => `${id}/${MANIFEST_SIGNATURE_FILE}`;
export const packKey = (sha256: string) => `${PACKS_DIR}/${packFileName(sha256)}`;

/**
 * The header of a version-2 manifest from the file's bytes. A version-1 manifest (per-URL files) is a
 * usage error: only packed snapshots go to an object store.
 */
export function parsePackedManifest(bytes: Buffer, where: string): ManifestHeader {
  const bad = (why: string) => new CatalogError('corrupt_object', `${where}: ${why}; run catalog verify on it`, { where });
  const text = bytes.toString('utf8');
  const end = text.indexOf('\n');
  let header: ManifestHeader;
  try {
    header = JSON.parse(end === -1 ? text : text.slice(0, end)) as ManifestHeader;
  } catch {
    throw bad('not a catalog manifest (its first line is not JSON)');
  }
  if (header?.format !== MANIFEST_FORMAT) throw bad('not a catalog manifest');
  if (!isPackedHeader(header)) {
    throw new CatalogError(
      'usage',
      `${where}: snapshot ${header.snapshotId} is in the per-URL layout (manifest version ${header.version}); only packed snapshots (version 2) go to an object store: compile it again with this version of catalog`,
      { where },
    );
  }
  if (typeof header.snapshotId !== 'string' || !isSnapshotId(header.snapshotId)) throw bad(`${JSON.stringify(header.snapshotId)} is not a snapshot id`);
  return header;
}

/** Every key the manifest names, checked: pack hashes are hex SHA-256, file names valid keys inside the snapshot. */
export function snapshotContents(header: ManifestHeader, where: string): SnapshotContents {
  const id = header.snapshotId;
  const bad = (why: string) => new CatalogError('corrupt_object', `${where}: ${why}`, { where });
  const seen = new Set<string>();
  const packs: StoredFile[] = [];
  for (const p of header.packs ?? []) {
    if (!SHA256_HEX.test(p?.sha256 ?? '') || !Number.isSafeInteger(p.size) || p.size < 0) throw bad(`a pack entry is malformed: ${JSON.stringify(p)}`);
    const key = packKey(p.sha256);
    if (seen.has(key)) continue;
    seen.add(key);
    packs.push({ key, size: p.size, sha256: p.sha256 });
  }
  const files: StoredFile[] = [];
  const named = [...(header.files ?? []).map((f) => ({ name: f?.name, size: f?.size, sha256: f?.sha256 })), ...(header.bulk ?? []).map((b) => ({ name: b?.file, size: b?.size, sha256: b?.sha256 }))];
  for (const f of named) {
    if (typeof f.name !== 'string' || !SHA256_HEX.test(f.sha256 ?? '') || !Number.isSafeInteger(f.size) || (f.size as number) < 0) {
      throw bad(`a file entry is malformed: ${JSON.stringify(f)}`);
    }
    const key = `${id}/${f.name}`;
    try {
      checkKey(key);
    } catch {
      throw bad(`the file name ${JSON.stringify(f.name)} is not a path inside the snapshot`);
    }
    if (key === manifestKey(id) || key === signatureKey(id) || seen.has(key)) throw bad(`the file ${f.name} is listed twice or names the manifest`);
    seen.add(key);
    files.push({ key, size: f.size as number, sha256: f.sha256 as string });
  }
  return { snapshotId: id, header, packs, files };
}
