/**
 * Packed snapshot roots built directly with the pack writer, writeObjectIndex and a version-2
 * manifest (signed), for the publish tests: several snapshots sharing packs, as incremental compiles
 * make them, with files of every kind the manifest lists. Object bytes are random: publishing never
 * looks inside them.
 */
import Database from 'better-sqlite3';
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BULK_DIR, CHANGES_FILE, MANIFEST_FILE, MANIFEST_SIGNATURE_FILE, OBJECT_INDEX_FILE, PACKS_DIR, SEARCH_DB_FILE } from '../../snapshots/keys.js';
import { MANIFEST_FORMAT, MANIFEST_VERSION_PACKS, type ManifestHeader } from '../../snapshots/manifest.js';
import { createPackWriter } from '../../snapshots/packs/pack-writer.js';
import { writeObjectIndex, type IndexRow } from '../../snapshots/packs/object-index.js';
import { signManifest } from '../../snapshots/signature.js';
import { switchCurrent } from '../../snapshots/store/pointer.js';

export interface FixturePack {
  sha256: string;
  size: number;
  objects: { key: string; offset: number; length: number; sha256: string }[];
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
export const fixtureSignKey = generateKeyPairSync('ed25519').privateKey;

/** One new pack in `root/packs` holding `count` random objects of about `bytesEach` bytes, keyed `v1/cards/<tag>-<i>/30d.json.gz`. */
export function writeFixturePack(root: string, tag: string, count: number, bytesEach = 2000): FixturePack {
  const writer = createPackWriter({ dir: join(root, PACKS_DIR), targetBytes: Number.MAX_SAFE_INTEGER });
  const objects: FixturePack['objects'] = [];
  for (let i = 0; i < count; i++) {
    const bytes = randomBytes(bytesEach + (i % 7));
    const at = writer.append(bytes);
    objects.push({ key: `v1/cards/${tag}-${i}/30d.json.gz`, offset: at.offset, length: at.length, sha256: sha(bytes) });
  }
  const [sealed] = writer.finish();
  return { sha256: sealed.sha256, size: sealed.size, objects };
}

/** A complete packed snapshot `id` referencing `packs`, made current (as a compile does). */
export async function writeFixtureSnapshot(root: string, id: string, packs: FixturePack[], previous: string | null = null): Promise<void> {
  const dir = join(root, id);
  mkdirSync(join(dir, BULK_DIR), { recursive: true });
  const rows: IndexRow[] = packs
    .flatMap((p, pack) => p.objects.map((o) => ({ key: o.key, pack, offset: o.offset, length: o.length, sha256: o.sha256, input: null })))
    .sort((a, b) => (a.key < b.key ? -1 : 1));
  const index = new Database(join(dir, OBJECT_INDEX_FILE));
  writeObjectIndex(index, packs.map((p) => ({ sha256: p.sha256, size: p.size })), rows);
  index.close();
  const search = new Database(join(dir, SEARCH_DB_FILE));
  search.exec("CREATE TABLE t (x); INSERT INTO t VALUES ('search index stand-in')");
  search.close();
  writeFileSync(join(dir, CHANGES_FILE), rows.map((r) => JSON.stringify({ key: r.key, change: 'new' }) + '\n').join(''));
  writeFileSync(join(dir, BULK_DIR, 'cards.ndjson.gz'), gzipSync(rows.map((r) => JSON.stringify(r) + '\n').join('')));
  const ref = (name: string) => {
    const bytes = readFileSync(join(dir, name));
    return { name, size: statSync(join(dir, name)).size, sha256: sha(bytes) };
  };
  const bulk = ref(`${BULK_DIR}/cards.ndjson.gz`);
  const header: ManifestHeader = {
    format: MANIFEST_FORMAT,
    version: MANIFEST_VERSION_PACKS,
    snapshotId: id,
    asOf: null,
    objects: rows.length,
    previous,
    counts: { new: rows.length, changed: 0, unchanged: 0, removed: 0 },
    bulk: [{ name: 'cards', file: bulk.name, count: rows.length, size: bulk.size, sha256: bulk.sha256, input: 'fixture' }],
    packs: packs.map((p) => ({ sha256: p.sha256, size: p.size })),
    files: [ref(OBJECT_INDEX_FILE), ref(SEARCH_DB_FILE), ref(CHANGES_FILE)],
  };
  const manifest = Buffer.from(JSON.stringify(header) + '\n');
  writeFileSync(join(dir, MANIFEST_SIGNATURE_FILE), JSON.stringify(signManifest(fixtureSignKey, { snapshotId: id, sha256: sha(manifest), size: manifest.length })) + '\n');
  writeFileSync(join(dir, MANIFEST_FILE), manifest);
  await switchCurrent(root, id);
}

/** Snapshot ids one second apart, in the order made. */
export const fixtureId = (n: number) => `20261125T0000${String(n).padStart(2, '0')}Z-0000000${n % 10}`;
